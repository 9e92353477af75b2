import { DashboardOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** The root's target: statistics of the enterprise (SPEC.md section 2, /Managent/dashboard). */
export const dashboardRoute: AppRoute = {
  path: '/Managent/dashboard',
  title: tk('route.dashboard'),
  icon: DashboardOutlined,
  hidden: true,
  activeMenu: '/',
  page: lazy(() => import('./DashboardPage')),
};

export { useStatistics } from './api';
