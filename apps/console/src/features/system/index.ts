import { ApiOutlined, BellOutlined, SkinOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../app/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Theme settings (admin only), plugin download and notifications (every role). */
export const subjectRoute: AppRoute = {
  path: '/System/subject',
  title: tk('route.subject'),
  icon: SkinOutlined,
  roles: ['admin'],
  page: lazy(() => import('./SubjectSettingsPage')),
};

export const pluginRoute: AppRoute = {
  path: '/System/plugin',
  title: tk('route.plugin'),
  icon: ApiOutlined,
  hidden: true,
  page: lazy(() => import('./PluginDownloadPage')),
};

export const notifyRoute: AppRoute = {
  path: '/System/notify',
  title: tk('route.notify'),
  icon: BellOutlined,
  hidden: true,
  page: lazy(() => import('./NotificationsPage')),
};
