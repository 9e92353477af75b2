import { lazy } from 'react';

/** The login page: outside the route table, served to anyone without a session. */
export const LoginPage = lazy(() => import('./LoginPage'));
