import { BankOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/**
 * Sub-enterprises (admin). In the menu only for an enterprise that has some; the page still opens
 * for any admin, so the first one can be created from the user menu.
 */
export const enterpriseRoute: AppRoute = {
  path: '/Managent/Enterprise',
  title: tk('route.enterprises'),
  icon: BankOutlined,
  roles: ['admin'],
  hidden: (context) => !context.hasChildren,
  page: lazy(() => import('./EnterpriseListPage')),
};

export { useEnterprise, useWorkingEnterprise } from './api';
export { WorkingEnterpriseSwitch } from './WorkingEnterpriseSwitch';
