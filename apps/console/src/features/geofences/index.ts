import { AimOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { tk } from '../../i18n/tk';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { GEOFENCE_LIST_PATH } from './paths';

/** Geofences and their edit form (children of /main; admin and editor, as the server allows). */
export const geofenceRoutes: AppRoute[] = [
  {
    path: GEOFENCE_LIST_PATH,
    title: tk('geofence.title'),
    icon: AimOutlined,
    roles: ['admin', 'editor'],
    page: lazy(() => import('./GeofenceListPage')),
  },
  {
    path: `${GEOFENCE_LIST_PATH}/edit`,
    title: tk('geofence.edit_route'),
    icon: AimOutlined,
    hidden: true,
    roles: ['admin', 'editor'],
    activeMenu: GEOFENCE_LIST_PATH,
    page: lazy(() => import('./GeofenceEditPage')),
  },
];

// The fence layer of the live map and of replay (no MapLibre code of its own: it loads with the map).
export { GeofenceLayer } from './GeofenceLayer';
