import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from '../i18n/i18n';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../i18n/languages';

/** The interface language, each named in itself. */
export function LanguagePicker() {
  const { t } = useTranslation();
  return (
    <label className="languagePicker">
      <span className="visuallyHidden">{t('language')}</span>
      <select
        value={currentLanguage()}
        onChange={(event) => {
          if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </label>
  );
}
