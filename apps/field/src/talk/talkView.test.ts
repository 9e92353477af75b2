import { describe, expect, it } from 'vitest';
import { initialTalkState } from './talkMachine';
import type { TalkState, TalkView } from './talkTypes';
import { otherTalker, talkView } from './talkView';

const ME = 5;
const CH = 42;
const CALL = 0x8000_0001;
const base: TalkState = { ...initialTalkState, channel: CH };
const patrol = { uid: 7, name: 'Patrol 7' };
const dispatch = { uid: 0, name: 'Dispatch' };
const inCall = { cid: CALL, from: 0, name: 'Dispatch', emergency: false, phase: 'active' } as const;

const rows: [string, TalkState, TalkView][] = [
  ['idle', base, { kind: 'idle' }],
  [
    'asking',
    { ...base, own: { phase: 'pendingRequest', cid: CH, since: 1, releaseWanted: false } },
    { kind: 'requesting' },
  ],
  [
    'talking, with its start for the timer',
    { ...base, own: { phase: 'hasPermission', cid: CH, since: 9, releaseWanted: false } },
    { kind: 'talking', since: 9 },
  ],
  ['someone else talks: named', { ...base, talkers: { [CH]: patrol } }, { kind: 'listening', talker: patrol }],
  [
    'its own floorTaken is no one else talking',
    { ...base, talkers: { [CH]: { uid: ME, name: 'Me' } } },
    { kind: 'idle' },
  ],
  [
    'busy while they talk: said with their name',
    { ...base, talkers: { [CH]: patrol }, notice: { kind: 'denied', reason: 'busy' } },
    { kind: 'denied', reason: 'busy', talker: patrol },
  ],
  [
    'busy once the floor is idle again: idle',
    { ...base, notice: { kind: 'denied', reason: 'busy' } },
    { kind: 'idle' },
  ],
  [
    'no microphone stays said',
    { ...base, notice: { kind: 'denied', reason: 'no_mic' } },
    { kind: 'denied', reason: 'no_mic', talker: null },
  ],
  [
    'pre-empted: said even while the other talks',
    { ...base, talkers: { [CH]: patrol }, notice: { kind: 'revoked', reason: 'preempted' } },
    { kind: 'revoked', reason: 'preempted' },
  ],
  [
    'in a call, the call’s talker counts, not the channel’s',
    { ...base, call: inCall, talkers: { [CH]: patrol, [CALL]: dispatch } },
    { kind: 'listening', talker: dispatch },
  ],
];

describe('talkView', () => {
  it.each(rows)('%s', (_name, state, view) => {
    expect(talkView(state, ME)).toEqual(view);
  });

  it('names who talks in the conversation the button does not talk in', () => {
    expect(otherTalker({ ...base, call: inCall, talkers: { [CH]: patrol } }, ME)).toEqual({
      cid: CH,
      name: 'Patrol 7',
    });
    expect(otherTalker({ ...base, call: inCall, talkers: { [CALL]: dispatch } }, ME)).toBeNull();
    expect(otherTalker({ ...base, talkers: { [CH]: patrol } }, ME)).toBeNull();
  });
});
