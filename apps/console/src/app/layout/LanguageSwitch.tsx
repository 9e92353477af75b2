import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n/i18n';
import { LANGUAGE_NAMES, LANGUAGES, isLanguage, pickLanguage } from '../../i18n/languages';

/** Language menu of the top bar; the choice is stored. */
export function LanguageSwitch({ showName = true }: { showName?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = pickLanguage(i18n.language, []);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((language) => ({ key: language, label: LANGUAGE_NAMES[language], lang: language })),
        onClick: ({ key }) => {
          if (isLanguage(key)) void changeLanguage(key);
        },
      }}
    >
      <Button
        type="text"
        icon={<TranslationOutlined />}
        aria-label={t('common.language')}
        title={t('common.language')}
        data-testid="language-switch"
      >
        {showName ? LANGUAGE_NAMES[current] : null}
      </Button>
    </Dropdown>
  );
}
