import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n/i18n';
import { LANGUAGE_NAMES, LANGUAGES, pickLanguage } from '../../i18n/languages';
import styles from './LoginPage.module.css';

/**
 * The login page's language choice: every language in view at once, each named in itself
 * (lighter than the top bar's dropdown, which the login page would otherwise download).
 */
export function LoginLanguageBar() {
  const { t, i18n } = useTranslation();
  const current = pickLanguage(i18n.language, []);
  return (
    <nav aria-label={t('common.language')} data-testid="language-switch" className={styles.languages}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          className={styles.languageButton}
          lang={language}
          aria-pressed={language === current}
          onClick={() => void changeLanguage(language)}
        >
          {LANGUAGE_NAMES[language]}
        </button>
      ))}
    </nav>
  );
}
