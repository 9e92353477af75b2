import { MobileOutlined, SafetyCertificateOutlined, TeamOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../app/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Users, devices and manager accounts (children of /Managent). */
export const userRoutes: AppRoute[] = [
  {
    path: '/Managent/User',
    title: tk('route.users'),
    icon: TeamOutlined,
    page: lazy(() => import('./UserListPage')),
  },
  {
    path: '/Managent/Resource',
    title: tk('route.resources'),
    icon: MobileOutlined,
    page: lazy(() => import('./ResourcePage')),
  },
  {
    path: '/Managent/Account',
    title: tk('route.accounts'),
    icon: SafetyCertificateOutlined,
    hidden: true,
    roles: ['admin'],
    page: lazy(() => import('./AccountListPage')),
  },
];
