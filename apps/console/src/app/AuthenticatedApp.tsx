import { useDeferredValue, useEffect, useMemo } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useLoginInfo, useSysConfig } from '../features/account';
import { NotFoundPage } from '../features/errors';
import { syncDateLocale } from '../i18n/i18n';
import { AppLayout } from './layout/AppLayout';
import { LiveHubConnection } from '../shared/hub/LiveHubConnection';
import { TalkConnection } from '../talk';
import { FullPageSpin } from '../shared/ui/FullPageSpin';
import { routeTable } from './routeTable';
import { flattenRoutes, preloadPage, resolveRoutes } from './routing/resolveRoutes';
import { SessionContext, type Session } from '../shared/session/SessionContext';
import { SessionFailure } from './session/SessionFailure';

/**
 * Session states 2-4 of SPEC.md section 4: with a token, load the account and the settings, then
 * generate the routes this role may open.
 */
export default function AuthenticatedApp() {
  const info = useLoginInfo();
  useEffect(() => {
    void syncDateLocale();
  }, []);
  const account = info.data;
  const signedIn = account !== undefined;
  useEffect(() => {
    // Once the token is known good (a dead one must not reach more endpoints), beside SysConfig.
    if (signedIn) preloadPage(routeTable, window.location.pathname);
  }, [signedIn]);
  // After the account: a dead token must end in "verification failed", not also a re-login dialog.
  const sysConfig = useSysConfig(account !== undefined);
  const defaultMap = sysConfig.data?.DefaultMap;

  const session = useMemo<Session | undefined>(() => {
    if (!account) return undefined;
    const routes = resolveRoutes(routeTable, { role: account.role, defaultMap, hasChildren: account.HasChildren });
    return { info: account, sysConfig: sysConfig.data, routes };
  }, [account, defaultMap, sysConfig.data]);
  // The map's visibility depends on the settings: wait for them unless they failed.
  const ready = sysConfig.isPending ? undefined : session;
  // The signed-in screens' first render (layout, menu, the page: 0.3-0.9 s of one task on a slow
  // PC) is rendered at a transition's priority, in slices, so the hub's snapshot and the map's
  // start are not held up behind it. Later sessions (another role) are shown the same way.
  const shown = useDeferredValue(ready);

  const elements = useMemo(
    () =>
      flattenRoutes(shown?.routes ?? []).map((route) => {
        const Page = route.page;
        if (Page) return <Route key={route.path} path={route.path} element={<Page />} />;
        if (route.redirect) {
          return <Route key={route.path} path={route.path} element={<Navigate to={route.redirect} replace />} />;
        }
        return null;
      }),
    [shown],
  );

  if (!session) {
    if (info.isError) return <SessionFailure error={info.error} retry={() => void info.refetch()} />;
    return <FullPageSpin />;
  }

  return (
    <>
      {/* Connected as soon as the account proved the token, beside SysConfig and the first render:
          the snapshot is what the live map waits for longest. */}
      <LiveHubConnection />
      {shown ? (
        <SessionContext value={shown}>
          <TalkConnection />
          <Routes>
            <Route element={<AppLayout />}>
              {elements}
              <Route path="/404" element={<NotFoundPage />} />
              <Route path="*" element={<Navigate to="/404" replace />} />
            </Route>
          </Routes>
        </SessionContext>
      ) : (
        <FullPageSpin />
      )}
    </>
  );
}
