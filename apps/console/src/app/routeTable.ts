import { ApartmentOutlined, DashboardOutlined, PhoneOutlined, SettingOutlined } from '@ant-design/icons';
import { accountRoute } from '../features/accounts';
import { channelRoutes } from '../features/channels';
import { dashboardRoute } from '../features/dashboard';
import { deviceRoute } from '../features/devices';
import { enterpriseRoute } from '../features/enterprises';
import { geofenceRoutes } from '../features/geofences';
import { mapRoutes } from '../features/map';
import { notifyRoute } from '../features/notify';
import { pluginRoute } from '../features/plugin';
import { profileRoute } from '../features/profile';
import { recordingRoute } from '../features/recordings';
import { safetyRoutes } from '../features/safety';
import { subjectRoute } from '../features/settings';
import { sysLogRoute } from '../features/syslog';
import { traceRoute } from '../features/trace';
import { userRoutes } from '../features/users';
import { videoRoute } from '../features/video';
import { tk } from '../i18n/tk';
import type { AppRoute } from '../shared/routing/AppRoute';

/**
 * The route table of SPEC.md section 2: the base routes, then the System/map set. Each feature
 * declares its own routes (path, page, menu title and icon, roles, hiding) in its index.ts; this
 * file only arranges them into the groups the sidebar shows, in the sidebar's order.
 */
export const routeTable: AppRoute[] = [
  { path: '/', title: tk('route.dashboard'), icon: DashboardOutlined, redirect: dashboardRoute.path },
  {
    path: '/Managent',
    title: tk('managent.title'),
    icon: ApartmentOutlined,
    redirect: '/Managent/User',
    children: [dashboardRoute, ...userRoutes, deviceRoute, accountRoute, enterpriseRoute],
  },
  {
    path: '/Channel',
    title: tk('route.channel_group'),
    icon: PhoneOutlined,
    redirect: '/Channel/Channel',
    children: [...channelRoutes, recordingRoute],
  },
  {
    path: '/System',
    title: tk('route.system'),
    icon: SettingOutlined,
    redirect: '/System/subject',
    children: [subjectRoute, pluginRoute, sysLogRoute, notifyRoute],
  },
  {
    path: '/main',
    title: tk('route.location'),
    hidden: true,
    redirect: '/main/map',
    children: [...mapRoutes, traceRoute, ...geofenceRoutes, ...safetyRoutes, videoRoute],
  },
  profileRoute,
];

/** The home entry: the first crumb of every breadcrumb. */
export const HOME_PATH = '/';
