import { VideoCameraOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** The video list and panel (a child of /main, beside the live map). */
export const videoRoute: AppRoute = {
  path: '/main/video',
  title: tk('route.video'),
  icon: VideoCameraOutlined,
  page: lazy(() => import('./VideoPage')),
};

export type { EncodedVideo, VideoFrameSource } from './videoFrameSource';
