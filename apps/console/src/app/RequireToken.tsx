import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { hasAccessToken } from '../shared/storage/tokenStore';
import { loginPathFor } from '../shared/routing/redirects';

/** The access guard: without a token every path but /login goes to /login?redirect=<path>. */
export function RequireToken({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!hasAccessToken()) {
    // The hash too: a shared map view (#zoom/lat/lon/bearing/pitch) opens once signed in.
    return <Navigate to={loginPathFor(location.pathname + location.search + location.hash)} replace />;
  }
  return children;
}
