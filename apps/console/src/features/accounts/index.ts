import { SafetyCertificateOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Manager accounts (admin only; opened from the user menu, not the sidebar). */
export const accountRoute: AppRoute = {
  path: '/Managent/Account',
  title: tk('route.accounts'),
  icon: SafetyCertificateOutlined,
  hidden: true,
  roles: ['admin'],
  page: lazy(() => import('./AccountListPage')),
};

export { useProfile, useSaveProfile } from './api';
