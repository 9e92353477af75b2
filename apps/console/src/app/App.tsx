import type { ComponentType } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { prefetchLoginInfo } from '../shared/api/loginInfoQuery';
import { loadAllMessages } from '../i18n/i18n';
import { FullPageSpin } from '../shared/ui/FullPageSpin';
import { LoadedComponent } from '../shared/ui/LoadedComponent';
import { preloadToasts } from '../shared/ui/ToastContext';
import { ApiEventBridge } from './ApiEventBridge';
import { AppProviders } from './AppProviders';
import { LoginRoute } from './LoginRoute';
import { RequireToken } from './RequireToken';
import { GuardBoundary } from './session/GuardBoundary';

let authenticatedApp: Promise<ComponentType> | undefined;

/**
 * Everything behind the login: layout, route table, features, antd and its theme, and every text
 * of the language.
 * Never loaded on the login page; loaded once, again only after a failure.
 */
function loadAuthenticatedApp(): Promise<ComponentType> {
  authenticatedApp ??= (() => {
    // Rendered behind RequireToken only, so there is a token to ask about; the answer is the first
    // thing these screens wait for, so it no longer waits for their code.
    prefetchLoginInfo();
    // The signed-in screens toast often: antd's toasts load beside their code, not at the first toast.
    preloadToasts();
    return Promise.all([import('./AuthenticatedApp'), import('./AntdTheme'), loadAllMessages()]).then(
      ([{ default: Screens }, { AntdTheme }]) =>
        function ThemedScreens() {
          return (
            <AntdTheme>
              <Screens />
            </AntdTheme>
          );
        },
      (error: unknown) => {
        authenticatedApp = undefined;
        throw error;
      },
    );
  })();
  return authenticatedApp;
}

export function App() {
  return (
    <AppProviders>
      <ApiEventBridge />
      <BrowserRouter>
        <Routes>
          <Route path="/login" element={<LoginRoute />} />
          <Route
            path="*"
            element={
              <RequireToken>
                <GuardBoundary>
                  <LoadedComponent load={loadAuthenticatedApp} fallback={<FullPageSpin />} />
                </GuardBoundary>
              </RequireToken>
            }
          />
        </Routes>
      </BrowserRouter>
    </AppProviders>
  );
}
