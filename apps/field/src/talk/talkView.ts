import { talkTarget } from './talkMachine';
import type { TalkState, TalkView } from './talkTypes';

/**
 * What the talk screen shows at a glance, in this order: the own talk (asking, talking), the last
 * refusal or revocation (until the next press), someone else talking where the button talks, idle.
 */
export function talkView(state: TalkState, me: number): TalkView {
  const { own, notice } = state;
  if (own.phase === 'pendingRequest') return { kind: 'requesting' };
  if (own.phase === 'hasPermission') return { kind: 'talking', since: own.since };
  const target = talkTarget(state);
  const talker = target === null ? undefined : state.talkers[target];
  const other = talker && talker.uid !== me ? talker : null;
  if (notice?.kind === 'revoked') return { kind: 'revoked', reason: notice.reason };
  if (notice?.kind === 'denied' && (notice.reason !== 'busy' || other)) {
    return { kind: 'denied', reason: notice.reason, talker: other };
  }
  return other ? { kind: 'listening', talker: other } : { kind: 'idle' };
}

/** Someone talking in the channel while the button talks in a call (or the other way round): named too. */
export function otherTalker(state: TalkState, me: number): { cid: number; name: string } | null {
  const target = talkTarget(state);
  for (const cid of [state.channel, state.call?.phase === 'active' ? state.call.cid : null]) {
    if (cid === null || cid === target) continue;
    const talker = state.talkers[cid];
    if (talker && talker.uid !== me) return { cid, name: talker.name };
  }
  return null;
}
