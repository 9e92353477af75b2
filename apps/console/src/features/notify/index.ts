import { BellOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Alarm records (every role; opened from the bell of the top bar, not the sidebar). */
export const notifyRoute: AppRoute = {
  path: '/System/notify',
  title: tk('route.notify'),
  icon: BellOutlined,
  hidden: true,
  page: lazy(() => import('./AlarmRecordsPage')),
};

export { detailText, stateLabel, typeLabel } from './notifyText';
