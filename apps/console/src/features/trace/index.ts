import { NodeIndexOutlined } from '@ant-design/icons';
import { mapHidden } from '@intercom/contract';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/**
 * Track history and replay (a child of /main, opened from the live map's Track button). A menu
 * entry of its own (issue 36: the menu lights the page shown), beside the map it leaves with.
 */
export const traceRoute: AppRoute = {
  path: '/main/trace',
  title: tk('route.trace'),
  icon: NodeIndexOutlined,
  hidden: (context) => mapHidden(context.defaultMap),
  page: lazy(() => import('./TracePage')),
};
