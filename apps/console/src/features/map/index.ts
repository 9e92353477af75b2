import { EnvironmentOutlined, GlobalOutlined, NodeIndexOutlined } from '@ant-design/icons';
import { mapHidden } from '@intercom/contract';
import { lazy } from 'react';
import type { AppRoute } from '../../app/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Live map, 3D map and track playback (children of /main). */
export const mapRoutes: AppRoute[] = [
  {
    path: '/main/map',
    title: tk('route.map'),
    icon: EnvironmentOutlined,
    // SPEC.md section 2: the map leaves the menu when the DefaultMap setting contains NONE.
    hidden: (context) => mapHidden(context.defaultMap),
    page: lazy(() => import('./LiveMapPage')),
  },
  {
    path: '/main/3dmap',
    title: tk('route.map3d'),
    icon: GlobalOutlined,
    hidden: true,
    page: lazy(() => import('./Map3dPage')),
  },
  {
    path: '/main/trace',
    title: tk('route.trace'),
    icon: NodeIndexOutlined,
    hidden: true,
    activeMenu: '/main/map',
    page: lazy(() => import('./TracePage')),
  },
];
