import type { UserRow } from '@intercom/contract';
import { tk } from '../../i18n/tk';

/** The State filter of the user list (a virtual field of the API). */
export type UserState = 'normal' | 'locked' | 'expired';
export const USER_STATES: UserState[] = ['normal', 'locked', 'expired'];

export const USER_STATE_LABELS: Record<UserState, string> = {
  normal: tk('users.state_normal'),
  locked: tk('users.state_locked'),
  expired: tk('users.state_expired'),
};

export const USER_STATE_COLORS: Record<UserState, string> = {
  normal: 'green',
  locked: 'red',
  expired: 'orange',
};

/** Frozen wins over expired: a frozen user cannot sign in whatever the date. */
export function userState(user: Pick<UserRow, 'IsLock' | 'ExpireAt'>, now = Date.now()): UserState {
  if (user.IsLock) return 'locked';
  if (user.ExpireAt !== null && user.ExpireAt < now) return 'expired';
  return 'normal';
}
