import { Suspense, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoginPage } from '../features/auth';
import { FullPageSpin } from '../shared/ui/FullPageSpin';
import { clearTokens, hasAccessToken } from '../shared/storage/tokenStore';
import { holdLoginLink } from '../shared/routing/loginLink';
import { preloadToasts } from '../shared/ui/ToastContext';

/** After the login page shows, antd's toasts load (a failed connection is told in one). */
const TOASTS_AFTER_MS = 2000;

/** Rendered beside the login page inside its Suspense: its effect runs once the page is shown. */
function ToastsAfterShown() {
  useEffect(() => {
    const timer = setTimeout(preloadToasts, TOASTS_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return null;
}

/**
 * /login. A login link first clears the stored token, keeps its credentials in memory and drops
 * the password from the address bar; with a token (and no link) the visitor goes to the root.
 */
export function LoginRoute() {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const psd = params.get('psd');
  if (psd !== null) {
    clearTokens();
    holdLoginLink({ user: params.get('user') ?? '', psd, code: params.get('code') ?? '' });
    params.delete('psd');
    params.set('auto', '1');
    return <Navigate to={{ pathname: location.pathname, search: `?${params.toString()}` }} replace />;
  }
  if (hasAccessToken()) return <Navigate to="/" replace />;
  return (
    <Suspense fallback={<FullPageSpin />}>
      <LoginPage />
      <ToastsAfterShown />
    </Suspense>
  );
}
