import { MobileOutlined, SafetyCertificateOutlined, TeamOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../app/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Users, batch creation, devices and manager accounts (children of /Managent). */
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
  {
    path: '/Managent/Resource',
    title: tk('route.resources'),
    icon: MobileOutlined,
    page: lazy(() => import('../devices/DeviceListPage')),
  },
  {
    path: '/Managent/Account',
    title: tk('route.accounts'),
    icon: SafetyCertificateOutlined,
    hidden: true,
    roles: ['admin'],
    page: lazy(() => import('../accounts/AccountListPage')),
  },
];
