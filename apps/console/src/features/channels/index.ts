import { AudioOutlined, CustomerServiceOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../app/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Talk channels, recording history and channel members (children of /Channel). */
export const channelRoutes: AppRoute[] = [
  {
    path: '/Channel/Channel',
    title: tk('route.channels'),
    icon: CustomerServiceOutlined,
    page: lazy(() => import('./ChannelListPage')),
  },
  {
    path: '/Channel/RecdHis',
    title: tk('route.recordings'),
    icon: AudioOutlined,
    page: lazy(() => import('./RecordingHistoryPage')),
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

// The channel tree (ChannelTree.tsx, reused by the live map) and the member picker
// (MemberPicker.tsx) are imported from their own files, so the route table stays out of their way
// and they load with the page that shows them.
