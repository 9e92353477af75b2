import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { prefetchLoginInfo } from '../shared/api/loginInfoQuery';
import { loadAllMessages } from '../i18n/i18n';
import { FullPageSpin } from '../shared/ui/FullPageSpin';
import { ApiEventBridge } from './ApiEventBridge';
import { AppProviders } from './AppProviders';
import { LoginRoute } from './LoginRoute';
import { RequireToken } from './RequireToken';
import { GuardBoundary } from './session/GuardBoundary';

/**
 * Everything behind the login: layout, route table, features, and every text of the language.
 * Never loaded on the login page.
 */
const AuthenticatedApp = lazy(() => {
  // Rendered behind RequireToken only, so there is a token to ask about; the answer is the first
  // thing these screens wait for, so it no longer waits for their code.
  prefetchLoginInfo();
  return Promise.all([import('./AuthenticatedApp'), loadAllMessages()]).then(([module]) => module);
});

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
                  <Suspense fallback={<FullPageSpin />}>
                    <AuthenticatedApp />
                  </Suspense>
                </GuardBoundary>
              </RequireToken>
            }
          />
        </Routes>
      </BrowserRouter>
    </AppProviders>
  );
}
