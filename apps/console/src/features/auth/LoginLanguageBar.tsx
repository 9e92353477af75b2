import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n/i18n';
import { LANGUAGE_NAMES, LANGUAGES, pickLanguage } from '../../i18n/languages';

/**
 * The login page's language choice: every language in view at once, each named in itself
 * (lighter than the top bar's dropdown, which the login page would otherwise download).
 */
export function LoginLanguageBar() {
  const { t, i18n } = useTranslation();
  const current = pickLanguage(i18n.language, []);
  return (
    <nav aria-label={t('common.language')} data-testid="language-switch">
      {LANGUAGES.map((language) => (
        <Button
          key={language}
          type="text"
          size="small"
          lang={language}
          aria-pressed={language === current}
          onClick={() => void changeLanguage(language)}
          style={{
            color: '#fff',
            opacity: language === current ? 1 : 0.72,
            fontWeight: language === current ? 600 : 400,
          }}
        >
          {LANGUAGE_NAMES[language]}
        </Button>
      ))}
    </nav>
  );
}
