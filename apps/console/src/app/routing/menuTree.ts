import type { ComponentType } from 'react';
import type { ResolvedRoute } from '../../shared/routing/AppRoute';

export interface MenuNode {
  /** The path the entry opens (a group's key is its own path). */
  key: string;
  title: string;
  icon: ComponentType | undefined;
  children?: MenuNode[];
}

function leaf(route: ResolvedRoute, fallbackIcon?: ComponentType): MenuNode {
  return { key: route.path, title: route.title ?? route.path, icon: route.icon ?? fallbackIcon };
}

/**
 * The sidebar of SPEC.md section 2: hidden entries are left out; a group becomes a submenu only
 * with several visible children, otherwise its one visible child stands on its own.
 */
export function menuTree(routes: readonly ResolvedRoute[]): MenuNode[] {
  const nodes: MenuNode[] = [];
  for (const route of routes) {
    const visible = (route.children ?? []).filter((child) => !child.hidden);
    if (!route.children) {
      if (!route.hidden && route.title) nodes.push(leaf(route));
    } else if (visible.length === 0) {
      // A group whose children are all hidden has nothing to show.
      continue;
    } else if (visible.length === 1 || route.hidden || !route.title) {
      nodes.push(...visible.map((child) => leaf(child, route.icon)));
    } else {
      nodes.push({ ...leaf(route), children: visible.map((child) => leaf(child)) });
    }
  }
  return nodes;
}

/** The menu key to highlight and the submenus to open for a (visible) route. */
export function menuSelection(route: ResolvedRoute | undefined, parents: readonly ResolvedRoute[]) {
  if (!route) return { selected: [] as string[], open: [] as string[] };
  return { selected: [route.path], open: parents.map((p) => p.path) };
}
