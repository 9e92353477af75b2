import { TeamOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Users and their batch creation (children of /Managent). */
export const userRoutes: AppRoute[] = [
  {
    path: '/Managent/User',
    title: tk('route.users'),
    icon: TeamOutlined,
    page: lazy(() => import('./UserListPage')),
  },
  {
    path: '/Managent/BatchUser',
    title: tk('batch.title'),
    icon: UsergroupAddOutlined,
    hidden: true,
    activeMenu: '/Managent/User',
    page: lazy(() => import('./create/BatchCreatePage')),
  },
];
