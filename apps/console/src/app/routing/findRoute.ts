import { matchPath } from 'react-router';
import type { ResolvedRoute } from '../../shared/routing/AppRoute';

export interface RouteMatch {
  route: ResolvedRoute;
  /** Enclosing groups, outermost first. */
  parents: ResolvedRoute[];
}

/** The route a path opens, with its groups (for the menu, the breadcrumb and the page title). */
export function findRoute(
  routes: readonly ResolvedRoute[],
  pathname: string,
  parents: ResolvedRoute[] = [],
): RouteMatch | undefined {
  for (const route of routes) {
    const inner = route.children ? findRoute(route.children, pathname, [...parents, route]) : undefined;
    if (inner) return inner;
    if (matchPath({ path: route.path, end: true }, pathname)) return { route, parents };
  }
  return undefined;
}

export interface Crumb {
  title: string;
  path: string | undefined;
}

/** Home first, then the groups and the page; the page itself is not a link. */
export function breadcrumbTrail(match: RouteMatch | undefined, home: ResolvedRoute | undefined): Crumb[] {
  const crumbs: Crumb[] = [];
  if (home?.title) crumbs.push({ title: home.title, path: home.path });
  if (!match) return crumbs;
  const chain = [...match.parents, match.route].filter((r) => r.title && r.path !== home?.path);
  if (match.route.activeMenu && match.route.activeMenu === home?.path)
    return crumbs.map((c) => ({ ...c, path: undefined }));
  chain.forEach((route, index) => {
    const last = index === chain.length - 1;
    crumbs.push({ title: route.title ?? '', path: last ? undefined : (route.redirect ?? route.path) });
  });
  return crumbs;
}
