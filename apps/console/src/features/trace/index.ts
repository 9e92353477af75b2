import { NodeIndexOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Track history and replay (a child of /main, opened from the live map's Track button). */
export const traceRoute: AppRoute = {
  path: '/main/trace',
  title: tk('route.trace'),
  icon: NodeIndexOutlined,
  hidden: true,
  activeMenu: '/main/map',
  page: lazy(() => import('./TracePage')),
};
