import { IdcardOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** The signed-in account's own page, opened from the user menu. */
export const profileRoute: AppRoute = {
  path: '/profile',
  title: tk('route.profile'),
  icon: IdcardOutlined,
  hidden: true,
  page: lazy(() => import('./ProfilePage')),
};
