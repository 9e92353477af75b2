import type { UserMapState } from '../shared/hub/userMapState';

/** Colours of the states (antd's palette, so the trees and the map agree). */
export const USER_STATE_COLOURS: Record<UserMapState, string> = {
  sos: '#f5222d',
  chatting: '#722ed1',
  online: '#52c41a',
  stale: '#faad14',
  offline: '#8c8c8c',
};
