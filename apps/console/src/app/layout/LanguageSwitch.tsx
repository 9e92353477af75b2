import { TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n/i18n';
import { LANGUAGE_NAMES, LANGUAGES, isLanguage, pickLanguage } from '../../i18n/languages';
import { ChoiceMenu } from './ChoiceMenu';

/** Language menu of the top bar; the choice is stored. */
export function LanguageSwitch({ showName = true }: { showName?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = pickLanguage(i18n.language, []);
  return (
    <ChoiceMenu
      icon={<TranslationOutlined />}
      label={t('common.language')}
      selected={current}
      items={LANGUAGES.map((language) => ({ key: language, label: LANGUAGE_NAMES[language], lang: language }))}
      onPick={(key) => {
        if (isLanguage(key)) void changeLanguage(key);
      }}
      testId="language-switch"
    >
      {showName ? LANGUAGE_NAMES[current] : null}
    </ChoiceMenu>
  );
}
