import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { antdLocaleOf } from '../i18n/antdLocales';
import { pickLanguage } from '../i18n/languages';
import { AntdConfig } from '../shared/ui/AntdConfig';
import { usePreferences } from './PreferencesContext';

/** antd's theme in the interface's language, at the component size chosen in the top bar. */
export function AntdTheme({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { size } = usePreferences();
  return (
    <AntdConfig size={size} locale={antdLocaleOf(pickLanguage(i18n.language, []))}>
      {children}
    </AntdConfig>
  );
}
