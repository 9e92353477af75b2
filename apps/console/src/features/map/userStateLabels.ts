import { tk } from '../../i18n/tk';
import type { UserMapState } from '../../shared/hub/userMapState';

export const USER_STATE_LABELS: Record<UserMapState, string> = {
  sos: tk('map.state_sos'),
  chatting: tk('map.state_chatting'),
  online: tk('map.state_online'),
  stale: tk('map.state_stale'),
  offline: tk('map.state_offline'),
};
