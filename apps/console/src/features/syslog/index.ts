import { FileSearchOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** The system log: administrators only (DESIGN.md section 5). */
export const sysLogRoute: AppRoute = {
  path: '/System/syslog',
  title: tk('route.syslog'),
  icon: FileSearchOutlined,
  roles: ['admin'],
  page: lazy(() => import('./SysLogPage')),
};

// The system log's action names (the locale test checks each has a text).
export { LOG_ACTIONS } from './sysLogText';
