import type { Role } from '@intercom/contract';
import type { ComponentType } from 'react';

/** What decides which routes a session gets (SPEC.md sections 2 and 6). */
export interface RouteContext {
  role: Role;
  /** The DefaultMap system setting; the live map leaves the menu when it contains NONE. */
  defaultMap: string | undefined;
  /** The account's enterprise has sub-enterprises (LoginInfo.HasChildren). */
  hasChildren?: boolean;
}

/**
 * One entry of the route table. Paths are absolute. `title` is an i18n key; `hidden` keeps a route
 * out of the sidebar (it still opens); `roles` keeps it out of the session entirely (admin sees all).
 */
export interface AppRoute {
  path: string;
  title?: string;
  icon?: ComponentType;
  hidden?: boolean | ((context: RouteContext) => boolean);
  roles?: readonly Role[];
  redirect?: string;
  /** The menu entry to highlight while this hidden route is open. */
  activeMenu?: string;
  /** The page: `lazy(...)`, or `lazyPage(...)` for a route that preloads. */
  page?: ComponentType;
  /** Starts loading the page's code and data; called when the console opens signed in at this path (a heavy page). */
  preload?: () => unknown;
  children?: AppRoute[];
}

/** A route as one session sees it: allowed for its role, hiding rules applied. */
export interface ResolvedRoute extends Omit<AppRoute, 'hidden' | 'children'> {
  hidden: boolean;
  children?: ResolvedRoute[];
}
