import { ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { antdLocaleOf } from '../i18n/antdLocales';
import { pickLanguage } from '../i18n/languages';
import { SpinIndicator } from '../shared/ui/SpinIndicator';
import { usePreferences } from './PreferencesContext';

const appTheme = {
  algorithm: theme.defaultAlgorithm,
  token: { colorPrimary: '#1668dc', borderRadius: 6 },
};
const spinConfig = { indicator: <SpinIndicator /> };

/**
 * antd's theme, locale and component size. Only code that loads after the login page uses it (the
 * signed-in screens, the toasts, the re-login dialog): the login route loads no antd (issue 34).
 */
export function AntdTheme({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { size } = usePreferences();
  const language = pickLanguage(i18n.language, []);
  return (
    <ConfigProvider locale={antdLocaleOf(language)} componentSize={size} theme={appTheme} spin={spinConfig}>
      {children}
    </ConfigProvider>
  );
}
