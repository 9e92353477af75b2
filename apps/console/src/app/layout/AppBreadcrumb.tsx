import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { HOME_PATH } from '../routeTable';
import { breadcrumbTrail, findRoute } from '../routing/findRoute';
import { useSession } from '../../shared/session/SessionContext';

/** Home, group, page; on a phone only the page. */
export function AppBreadcrumb({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const { routes } = useSession();
  const { pathname } = useLocation();
  const home = routes.find((route) => route.path === HOME_PATH);
  const crumbs = breadcrumbTrail(findRoute(routes, pathname), home);
  const shown = compact ? crumbs.slice(-1) : crumbs;
  return (
    <Breadcrumb
      style={{ minWidth: 0, whiteSpace: 'nowrap', overflow: 'hidden' }}
      items={shown.map((crumb) => ({
        key: crumb.title,
        title: crumb.path ? <Link to={crumb.path}>{t(crumb.title)}</Link> : t(crumb.title),
      }))}
    />
  );
}
