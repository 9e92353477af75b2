import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { FullPageSpin } from '../shared/ui/FullPageSpin';
import { ApiEventBridge } from './ApiEventBridge';
import { AppProviders } from './AppProviders';
import { LoginRoute } from './LoginRoute';
import { RequireToken } from './RequireToken';

/** Everything behind the login: layout, route table, features. Never loaded on the login page. */
const AuthenticatedApp = lazy(() => import('./AuthenticatedApp'));

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
                <Suspense fallback={<FullPageSpin />}>
                  <AuthenticatedApp />
                </Suspense>
              </RequireToken>
            }
          />
        </Routes>
      </BrowserRouter>
    </AppProviders>
  );
}
