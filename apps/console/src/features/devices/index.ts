import { MobileOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Devices (phone number, SIM ICCID) of the enterprise: a child of /Managent. */
export const deviceRoute: AppRoute = {
  path: '/Managent/Resource',
  title: tk('route.resources'),
  icon: MobileOutlined,
  page: lazy(() => import('./DeviceListPage')),
};
