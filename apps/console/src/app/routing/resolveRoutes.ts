import { matchPath } from 'react-router';
import type { AppRoute, ResolvedRoute, RouteContext } from '../../shared/routing/AppRoute';

function allowed(route: AppRoute, context: RouteContext): boolean {
  return context.role === 'admin' || !route.roles || route.roles.includes(context.role);
}

function resolve(route: AppRoute, context: RouteContext): ResolvedRoute | undefined {
  if (!allowed(route, context)) return undefined;
  const hidden = typeof route.hidden === 'function' ? route.hidden(context) : Boolean(route.hidden);
  const { children: declared, ...rest } = route;
  if (!declared) return { ...rest, hidden };
  const children = declared.map((child) => resolve(child, context)).filter((c): c is ResolvedRoute => c !== undefined);
  if (children.length === 0 && !route.page) return undefined;
  // A group whose declared target is not allowed for this role opens its first allowed child.
  const redirect =
    route.redirect && children.some((c) => c.path === route.redirect) ? route.redirect : children[0]?.path;
  return { ...rest, hidden, children, ...(redirect ? { redirect } : {}) };
}

/** The routes one session gets: role filter (admin sees all) and hiding rules (SPEC.md 2 and 6). */
export function resolveRoutes(table: readonly AppRoute[], context: RouteContext): ResolvedRoute[] {
  return table.map((route) => resolve(route, context)).filter((r): r is ResolvedRoute => r !== undefined);
}

/** Every route of a resolved tree, parents before children. */
export function flattenRoutes(routes: readonly ResolvedRoute[]): ResolvedRoute[] {
  return routes.flatMap((route) => [route, ...flattenRoutes(route.children ?? [])]);
}

/**
 * Starts loading the code (and data) of the page opened at `pathname`, if its route can preload:
 * while the settings load, instead of after (the map's chunk carries MapLibre, 1 MB to parse). A
 * failed preload is left to the page: it loads again when shown and its error boundary says so.
 */
export function preloadPage(routes: readonly AppRoute[], pathname: string): void {
  for (const route of routes) {
    if (matchPath({ path: route.path, end: true }, pathname))
      void Promise.resolve(route.preload?.()).catch(() => undefined);
    if (route.children) preloadPage(route.children, pathname);
  }
}
