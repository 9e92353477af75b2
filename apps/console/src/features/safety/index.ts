import { SafetyOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { tk } from '../../i18n/tk';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { SAFETY_LIST_PATH } from './paths';

/** Safety settings and their edit form (children of /main; admin and editor, as for geofences). */
export const safetyRoutes: AppRoute[] = [
  {
    path: SAFETY_LIST_PATH,
    title: tk('safety.title'),
    icon: SafetyOutlined,
    roles: ['admin', 'editor'],
    page: lazy(() => import('./SafetyListPage')),
  },
  {
    path: `${SAFETY_LIST_PATH}/edit`,
    title: tk('safety.edit_route'),
    icon: SafetyOutlined,
    hidden: true,
    roles: ['admin', 'editor'],
    activeMenu: SAFETY_LIST_PATH,
    page: lazy(() => import('./SafetyEditPage')),
  },
];
