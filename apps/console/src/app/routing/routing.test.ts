import { describe, expect, it } from 'vitest';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { breadcrumbTrail, findRoute } from './findRoute';
import { menuSelection, menuTree } from './menuTree';
import { flattenRoutes, preloadPage, resolveRoutes } from './resolveRoutes';

/** The shape of the real route table (SPEC.md section 2), without pages. */
const table: AppRoute[] = [
  { path: '/', title: 'route.dashboard', redirect: '/Managent/dashboard' },
  {
    path: '/Managent',
    title: 'managent.title',
    redirect: '/Managent/User',
    children: [
      { path: '/Managent/dashboard', title: 'route.dashboard', hidden: true, activeMenu: '/' },
      { path: '/Managent/User', title: 'route.users' },
      { path: '/Managent/Resource', title: 'route.resources' },
      { path: '/Managent/Account', title: 'route.accounts', hidden: true, roles: ['admin'] },
    ],
  },
  {
    path: '/System',
    title: 'route.system',
    redirect: '/System/subject',
    children: [
      { path: '/System/subject', title: 'route.subject', roles: ['admin'] },
      { path: '/System/plugin', title: 'route.plugin', hidden: true },
      { path: '/System/syslog', title: 'route.syslog', roles: ['admin'] },
      { path: '/System/notify', title: 'route.notify', hidden: true },
    ],
  },
  {
    path: '/main',
    title: 'route.location',
    hidden: true,
    redirect: '/main/map',
    children: [
      { path: '/main/map', title: 'route.map', hidden: (c) => (c.defaultMap ?? '').includes('NONE') },
      { path: '/main/trace', title: 'route.trace', hidden: true, activeMenu: '/main/map' },
    ],
  },
];

const paths = (routes: AppRoute[]) => flattenRoutes(resolveRoutes(routes, { role: 'editor', defaultMap: undefined }));
const keys = (nodes: ReturnType<typeof menuTree>): unknown =>
  nodes.map((n) => (n.children ? { [n.key]: keys(n.children) } : n.key));

describe('route table per session', () => {
  it('admin gets every route; the System group is a submenu of subject and syslog', () => {
    const routes = resolveRoutes(table, { role: 'admin', defaultMap: 'OFFLINE' });
    expect(keys(menuTree(routes))).toEqual([
      '/',
      { '/Managent': ['/Managent/User', '/Managent/Resource'] },
      { '/System': ['/System/subject', '/System/syslog'] },
      '/main/map',
    ]);
  });

  it('editor loses accounts, subject and syslog but keeps plugin, notify and the map', () => {
    const all = paths(table).map((r) => r.path);
    expect(all).not.toContain('/Managent/Account');
    expect(all).not.toContain('/System/subject');
    expect(all).not.toContain('/System/syslog');
    expect(all).toEqual(expect.arrayContaining(['/System/plugin', '/System/notify', '/main/map', '/main/trace']));
    const routes = resolveRoutes(table, { role: 'editor', defaultMap: undefined });
    // No visible System child is left, so no System entry; /System opens the first allowed child.
    expect(keys(menuTree(routes))).toEqual([
      '/',
      { '/Managent': ['/Managent/User', '/Managent/Resource'] },
      '/main/map',
    ]);
    expect(routes.find((r) => r.path === '/System')?.redirect).toBe('/System/plugin');
  });

  it('the map leaves the menu when DefaultMap contains NONE, and still opens', () => {
    const routes = resolveRoutes(table, { role: 'admin', defaultMap: 'NONE' });
    expect(menuTree(routes).map((n) => n.key)).not.toContain('/main/map');
    expect(findRoute(routes, '/main/map')?.route.path).toBe('/main/map');
  });

  it('a hidden page lights its menu entry and names the way home', () => {
    const routes = resolveRoutes(table, { role: 'admin', defaultMap: undefined });
    const trace = findRoute(routes, '/main/trace');
    expect(trace?.route.activeMenu).toBe('/main/map');
    const syslog = findRoute(routes, '/system/syslog');
    expect(menuSelection(syslog?.route, syslog?.parents ?? [])).toEqual({
      selected: ['/System/syslog'],
      open: ['/System'],
    });
    const home = routes[0];
    expect(breadcrumbTrail(syslog, home)).toEqual([
      { title: 'route.dashboard', path: '/' },
      { title: 'route.system', path: '/System/subject' },
      { title: 'route.syslog', path: undefined },
    ]);
    expect(breadcrumbTrail(findRoute(routes, '/Managent/dashboard'), home)).toEqual([
      { title: 'route.dashboard', path: undefined },
    ]);
  });

  it('unknown paths match nothing (the app sends them to /404)', () => {
    expect(findRoute(resolveRoutes(table, { role: 'admin', defaultMap: undefined }), '/nope')).toBeUndefined();
  });

  it('preloads the code of the page the console opens at, and no other', () => {
    const loaded: string[] = [];
    const routes: AppRoute[] = [
      { path: '/Managent', children: [{ path: '/Managent/User', preload: () => loaded.push('users') }] },
      { path: '/main/map', preload: () => loaded.push('map') },
      { path: '/main/3dmap', preload: () => loaded.push('3d') },
    ];
    preloadPage(routes, '/main/map');
    preloadPage(routes, '/Managent/User');
    preloadPage(routes, '/nope');
    expect(loaded).toEqual(['map', 'users']);
  });

  it('a preload that fails is no unhandled rejection (the page loads again when shown)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let asked = 0;
      const routes: AppRoute[] = [
        {
          path: '/main/map',
          preload: () => {
            asked += 1;
            return Promise.reject(new Error('chunk failed'));
          },
        },
      ];
      preloadPage(routes, '/main/map');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(asked).toBe(1);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
