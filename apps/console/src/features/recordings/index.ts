import { AudioOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Recording history with player and download (a child of /Channel). */
export const recordingRoute: AppRoute = {
  path: '/Channel/RecdHis',
  title: tk('route.recordings'),
  icon: AudioOutlined,
  page: lazy(() => import('./RecordingHistoryPage')),
};

export { formatSize } from './recordingFormat';
export { RecordingPlayer } from './RecordingPlayer';
