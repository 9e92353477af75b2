import { CustomerServiceOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Talk channels and a channel's members (children of /Channel). */
export const channelRoutes: AppRoute[] = [
  {
    path: '/Channel/Channel',
    title: tk('route.channels'),
    icon: CustomerServiceOutlined,
    page: lazy(() => import('./ChannelListPage')),
  },
  {
    path: '/Channel/cmember',
    title: tk('route.channel_members'),
    icon: UsergroupAddOutlined,
    hidden: true,
    activeMenu: '/Channel/Channel',
    page: lazy(() => import('./ChannelMembersPage')),
  },
];

// The channel tree (the live map shows it) and a user's channels (from the user list). Only the
// pages that render them import them, so they load with those pages.
export { ChannelTree } from './ChannelTree';
export { UserChannelsDialog } from './UserChannelsDialog';
