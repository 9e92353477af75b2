import { ApiOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** The talk-plugin download (every role; opened from the top bar, not the sidebar). */
export const pluginRoute: AppRoute = {
  path: '/System/plugin',
  title: tk('route.plugin'),
  icon: ApiOutlined,
  hidden: true,
  page: lazy(() => import('./PluginPage')),
};
