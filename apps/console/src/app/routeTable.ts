import { ApartmentOutlined, DashboardOutlined, PhoneOutlined, SettingOutlined } from '@ant-design/icons';
import { channelRoutes } from '../features/channels';
import { dashboardRoute } from '../features/dashboard';
import { enterpriseRoute } from '../features/enterprises';
import { mapRoutes } from '../features/map';
import { profileRoute } from '../features/profile';
import { sysLogRoute } from '../features/syslog';
import { notifyRoute, pluginRoute, subjectRoute } from '../features/system';
import { userRoutes } from '../features/users';
import { tk } from '../i18n/tk';
import type { AppRoute } from './routing/AppRoute';

/**
 * The route table of SPEC.md section 2: the base routes, then the System/map set. Features bring
 * their pages; this file only arranges them into the groups the sidebar shows.
 */
export const routeTable: AppRoute[] = [
  { path: '/', title: tk('route.dashboard'), icon: DashboardOutlined, redirect: dashboardRoute.path },
  {
    path: '/Managent',
    title: tk('managent.title'),
    icon: ApartmentOutlined,
    redirect: '/Managent/User',
    children: [dashboardRoute, ...userRoutes, enterpriseRoute],
  },
  {
    path: '/Channel',
    title: tk('route.channel_group'),
    icon: PhoneOutlined,
    redirect: '/Channel/Channel',
    children: channelRoutes,
  },
  {
    path: '/System',
    title: tk('route.system'),
    icon: SettingOutlined,
    redirect: '/System/subject',
    children: [subjectRoute, pluginRoute, sysLogRoute, notifyRoute],
  },
  { path: '/main', title: tk('route.location'), hidden: true, redirect: '/main/map', children: mapRoutes },
  profileRoute,
];

/** The home entry: the first crumb of every breadcrumb. */
export const HOME_PATH = '/';
