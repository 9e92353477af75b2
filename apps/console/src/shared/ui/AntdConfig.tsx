import { ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { SpinIndicator } from './SpinIndicator';
import { usePrefersReducedMotion } from './usePrefersReducedMotion';

const appTheme = {
  algorithm: theme.defaultAlgorithm,
  token: { colorPrimary: '#1668dc', borderRadius: 6 },
};
/** The same without antd's motion: for a system set to reduce motion (WCAG 2.3.3). */
const stillTheme = { ...appTheme, token: { ...appTheme.token, motion: false } };
const spinConfig = { indicator: <SpinIndicator /> };

type ConfigProps = Parameters<typeof ConfigProvider>[0];

/**
 * antd's theme (colours, the app's spinner; no animations where the system asks to reduce motion),
 * with a locale and component size when given. Only code that loads after the login page uses it
 * (the signed-in screens, the toasts, the re-login dialog): the login route loads no antd (issue 34).
 */
export function AntdConfig({
  children,
  size,
  locale,
}: {
  children: ReactNode;
  size?: ConfigProps['componentSize'];
  locale?: ConfigProps['locale'];
}) {
  const still = usePrefersReducedMotion();
  return (
    <ConfigProvider locale={locale} componentSize={size} theme={still ? stillTheme : appTheme} spin={spinConfig}>
      {children}
    </ConfigProvider>
  );
}
