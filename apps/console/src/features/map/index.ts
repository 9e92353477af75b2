import { EnvironmentOutlined, GlobalOutlined } from '@ant-design/icons';
import { mapHidden } from '@intercom/contract';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { lazyPage, type LazyPage } from '../../shared/routing/lazyPage';
import { basemapQuery } from '../../map/useBasemap';
import { queryClient } from '../../shared/api/queryClient';
import { tk } from '../../i18n/tk';

const liveMapPage = lazyPage(() => import('./LiveMapPage'));
const map3dPage = lazyPage(() => import('./Map3dPage'));
/**
 * The map's code (1.1 MB with MapLibre) and its basemap, fetched while the settings still load, and
 * the users' tile worker started as soon as its code is here (UsersTileWorker).
 */
const preloadMap = (page: LazyPage) => () => {
  void queryClient.prefetchQuery(basemapQuery);
  void import('../../map/users/UsersTileWorker').then(
    ({ prewarmUsersTileWorker }) => prewarmUsersTileWorker(),
    () => undefined,
  );
  return page.preload();
};

/** Live map and 3D map (children of /main; track playback is features/trace). */
export const mapRoutes: AppRoute[] = [
  {
    path: '/main/map',
    title: tk('route.map'),
    icon: EnvironmentOutlined,
    // SPEC.md section 2: the map leaves the menu when the DefaultMap setting contains NONE.
    hidden: (context) => mapHidden(context.defaultMap),
    page: liveMapPage,
    preload: preloadMap(liveMapPage),
  },
  {
    path: '/main/3dmap',
    title: tk('route.map3d'),
    icon: GlobalOutlined,
    // A menu entry of its own, so the menu lights it while it shows (issue 36).
    hidden: (context) => mapHidden(context.defaultMap),
    page: map3dPage,
    preload: preloadMap(map3dPage),
  },
];

// The trace page geocodes its stops through the same cached proxy.
export { useReverseGeocode } from './api';
