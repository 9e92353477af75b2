import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { antdLocaleOf } from '../i18n/antdLocales';
import { pickLanguage } from '../i18n/languages';
import { queryClient } from '../shared/api/queryClient';
import { SpinIndicator } from '../shared/ui/SpinIndicator';
import { ToastProvider } from '../shared/ui/ToastContext';
import { PreferencesProvider, usePreferences } from './PreferencesContext';

const appTheme = {
  algorithm: theme.defaultAlgorithm,
  token: { colorPrimary: '#1668dc', borderRadius: 6 },
};
const spinConfig = { indicator: <SpinIndicator /> };

function ThemedApp({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { size } = usePreferences();
  const language = pickLanguage(i18n.language, []);
  return (
    <ConfigProvider locale={antdLocaleOf(language)} componentSize={size} theme={appTheme} spin={spinConfig}>
      <ToastProvider>{children}</ToastProvider>
    </ConfigProvider>
  );
}

/** Query cache, stored preferences, antd theme and locale, and antd's toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <ThemedApp>{children}</ThemedApp>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
