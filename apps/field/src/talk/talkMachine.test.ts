import { describe, expect, it } from 'vitest';
import { hears, initialTalkState, talkStep, talkTarget } from './talkMachine';
import type { CallState, OwnFloor, TalkEffect, TalkEvent, TalkState } from './talkTypes';

const CH = 42;
const OTHER_CH = 96;
const CALL = 0x8000_0001;
const SOS_CALL = 0x8000_0002;

const floor = (phase: OwnFloor['phase'], cid = CH, extra: Partial<OwnFloor> = {}): OwnFloor => ({
  phase,
  cid,
  since: phase === 'noPermission' ? 0 : 1000,
  releaseWanted: false,
  ...extra,
});
const NONE = floor('noPermission', 0);
const ringing: CallState = { cid: CALL, from: 0, name: 'Dispatch', emergency: false, phase: 'ringing' };
const inCall: CallState = { ...ringing, phase: 'active' };
const emergency: CallState = { cid: SOS_CALL, from: null, name: null, emergency: true, phase: 'active' };

/** The named states the table starts from. */
const S = {
  idle: { ...initialTalkState, channel: CH },
  noChannel: initialTalkState,
  asking: { ...initialTalkState, channel: CH, own: floor('pendingRequest') },
  askingLetGo: { ...initialTalkState, channel: CH, own: floor('pendingRequest', CH, { releaseWanted: true }) },
  talking: { ...initialTalkState, channel: CH, own: floor('hasPermission') },
  draining: { ...initialTalkState, channel: CH, own: floor('pendingRelease') },
  ringing: { ...initialTalkState, channel: CH, call: ringing },
  inCall: { ...initialTalkState, channel: CH, call: inCall },
  talkingInCall: { ...initialTalkState, channel: CH, call: inCall, own: floor('hasPermission', CALL) },
  emergency: { ...initialTalkState, channel: CH, call: emergency },
  heardTalker: { ...initialTalkState, channel: CH, talkers: { [CH]: { uid: 7, name: 'Patrol 7' } } },
} satisfies Record<string, TalkState>;

type Row = [string, TalkState, TalkEvent, Partial<TalkState>, TalkEffect[]];

const rows: Row[] = [
  // Floor participant (3GPP TS 24.380): no permission -> pending request -> has permission -> pending release.
  [
    'press asks for the channel floor',
    S.idle,
    { type: 'press', at: 5 },
    { own: floor('pendingRequest', CH, { since: 5 }) },
    [{ type: 'requestFloor', cid: CH }],
  ],
  [
    'press with no channel is refused here',
    S.noChannel,
    { type: 'press', at: 5 },
    { own: NONE, notice: { kind: 'denied', reason: 'no_channel' } },
    [],
  ],
  ['press while asking changes nothing', S.asking, { type: 'press', at: 5 }, { own: S.asking.own }, []],
  [
    'press while the last talk drains changes nothing',
    S.draining,
    { type: 'press', at: 5 },
    { own: S.draining.own },
    [],
  ],
  [
    'granted: the microphone sends',
    S.asking,
    { type: 'granted', cid: CH, at: 9 },
    { own: floor('hasPermission', CH, { since: 9 }) },
    [{ type: 'startSending', cid: CH }],
  ],
  [
    'granted after the button was let go: released at once',
    S.askingLetGo,
    { type: 'granted', cid: CH, at: 9 },
    { own: floor('pendingRelease', CH, { releaseWanted: true }) },
    [{ type: 'stopSending', cid: CH, release: true }],
  ],
  [
    'granted for another floor is stale',
    S.asking,
    { type: 'granted', cid: OTHER_CH, at: 9 },
    { own: S.asking.own },
    [],
  ],
  [
    'busy: denied with the reason',
    S.asking,
    { type: 'refused', cid: CH, reason: 'busy' },
    { own: NONE, notice: { kind: 'denied', reason: 'busy' } },
    [],
  ],
  [
    'refusal when not asking is stale',
    S.idle,
    { type: 'refused', cid: CH, reason: 'busy' },
    { own: NONE, notice: null },
    [],
  ],
  [
    'let go while asking: remembered',
    S.asking,
    { type: 'release' },
    { own: floor('pendingRequest', CH, { releaseWanted: true }) },
    [],
  ],
  [
    'let go while talking: drain, then release',
    S.talking,
    { type: 'release' },
    { own: floor('pendingRelease') },
    [{ type: 'stopSending', cid: CH, release: true }],
  ],
  ['let go while idle changes nothing', S.idle, { type: 'release' }, { own: NONE }, []],
  ['released: back to no permission', S.draining, { type: 'released' }, { own: NONE }, []],
  ['released when not draining is stale', S.talking, { type: 'released' }, { own: S.talking.own }, []],
  [
    'revoked (pre-empted) while talking',
    S.talking,
    { type: 'floorRevoked', cid: CH, reason: 'preempted' },
    { own: NONE, notice: { kind: 'revoked', reason: 'preempted' } },
    [{ type: 'stopSending', cid: CH, release: false }],
  ],
  [
    'revoked (silence) while talking',
    S.talking,
    { type: 'floorRevoked', cid: CH, reason: 'silence' },
    { own: NONE, notice: { kind: 'revoked', reason: 'silence' } },
    [{ type: 'stopSending', cid: CH, release: false }],
  ],
  [
    'revoked for a floor not held is stale',
    S.idle,
    { type: 'floorRevoked', cid: CH, reason: 'timeout' },
    { own: NONE, notice: null },
    [],
  ],
  [
    'no microphone while talking: released, said why',
    S.talking,
    { type: 'micFailed' },
    { own: floor('pendingRelease'), notice: { kind: 'denied', reason: 'no_mic' } },
    [{ type: 'stopSending', cid: CH, release: true }],
  ],
  [
    'no microphone while asking: let go when granted',
    S.asking,
    { type: 'micFailed' },
    { own: floor('pendingRequest', CH, { releaseWanted: true }), notice: { kind: 'denied', reason: 'no_mic' } },
    [],
  ],
  // Who talks.
  [
    'floorTaken names the talker',
    S.idle,
    { type: 'floorTaken', cid: CH, uid: 7, name: 'Patrol 7' },
    { talkers: { [CH]: { uid: 7, name: 'Patrol 7' } } },
    [],
  ],
  ['floorIdle forgets the talker', S.heardTalker, { type: 'floorIdle', cid: CH }, { talkers: {} }, []],
  // The channel the shell is in.
  [
    'moved while talking: the server let the floor go',
    S.talking,
    { type: 'channel', cid: OTHER_CH },
    { channel: OTHER_CH, own: NONE },
    [{ type: 'stopSending', cid: CH, release: false }],
  ],
  [
    'moved while asking: the answer will be stale',
    S.asking,
    { type: 'channel', cid: OTHER_CH },
    { channel: OTHER_CH, own: NONE },
    [],
  ],
  [
    'moved: the old channel talker is forgotten',
    S.heardTalker,
    { type: 'channel', cid: OTHER_CH },
    { channel: OTHER_CH, talkers: {} },
    [],
  ],
  ['the same channel again changes nothing', S.talking, { type: 'channel', cid: CH }, { own: S.talking.own }, []],
  // Calls.
  [
    "a dispatcher's call rings",
    S.idle,
    { type: 'callStart', cid: CALL, from: 0, name: 'Dispatch', emergency: false },
    { call: ringing },
    [{ type: 'ring', on: true }],
  ],
  [
    'an emergency call is open at once, no ring',
    S.idle,
    { type: 'callStart', cid: SOS_CALL, from: null, name: null, emergency: true },
    { call: emergency },
    [],
  ],
  [
    'an emergency call while talking in the channel: the talk goes on',
    S.talking,
    { type: 'callStart', cid: SOS_CALL, from: null, name: null, emergency: true },
    { call: emergency, own: S.talking.own },
    [],
  ],
  [
    'a second call while one is open is turned down',
    S.inCall,
    { type: 'callStart', cid: CALL + 5, from: 0, name: 'Other', emergency: false },
    { call: inCall },
    [{ type: 'hangup', cid: CALL + 5 }],
  ],
  [
    'the emergency call ends a ringing call',
    S.ringing,
    { type: 'callStart', cid: SOS_CALL, from: null, name: null, emergency: true },
    { call: emergency },
    [
      { type: 'ring', on: false },
      { type: 'hangup', cid: CALL },
    ],
  ],
  [
    'the same callStart again changes nothing',
    S.ringing,
    { type: 'callStart', cid: CALL, from: 0, name: 'Dispatch', emergency: false },
    { call: ringing },
    [],
  ],
  [
    'answer stops the ring and opens the call',
    S.ringing,
    { type: 'answer' },
    { call: inCall },
    [{ type: 'ring', on: false }],
  ],
  ['answer with nothing ringing changes nothing', S.inCall, { type: 'answer' }, { call: inCall }, []],
  [
    'decline a ringing call',
    S.ringing,
    { type: 'hangup' },
    { call: null },
    [
      { type: 'ring', on: false },
      { type: 'hangup', cid: CALL },
    ],
  ],
  [
    'end a call while talking in it',
    S.talkingInCall,
    { type: 'hangup' },
    { call: null, own: NONE },
    [
      { type: 'stopSending', cid: CALL, release: false },
      { type: 'hangup', cid: CALL },
    ],
  ],
  ['hang up with no call changes nothing', S.idle, { type: 'hangup' }, { call: null }, []],
  [
    'callEnd while ringing stops the ring',
    S.ringing,
    { type: 'callEnd', cid: CALL },
    { call: null },
    [{ type: 'ring', on: false }],
  ],
  [
    'callEnd while talking in the call stops the microphone',
    S.talkingInCall,
    { type: 'callEnd', cid: CALL },
    { call: null, own: NONE },
    [{ type: 'stopSending', cid: CALL, release: false }],
  ],
  ['callEnd of another call is stale', S.inCall, { type: 'callEnd', cid: CALL + 9 }, { call: inCall }, []],
  // The connection.
  [
    'disconnected while talking: the microphone stops',
    S.talking,
    { type: 'disconnected' },
    { own: NONE, talkers: {} },
    [{ type: 'stopSending', cid: CH, release: false }],
  ],
  [
    'disconnected while ringing: the call is gone',
    S.ringing,
    { type: 'disconnected' },
    { call: null },
    [{ type: 'ring', on: false }],
  ],
];

describe('talkStep', () => {
  it.each(rows)('%s', (_name, from, event, expected, effects) => {
    const step = talkStep(from, event);
    expect(step.state).toMatchObject(expected);
    expect(step.effects).toEqual(effects);
  });

  it('the button talks in the open call, else in the channel', () => {
    expect(talkTarget(S.idle)).toBe(CH);
    expect(talkTarget(S.ringing)).toBe(CH);
    expect(talkTarget(S.inCall)).toBe(CALL);
    expect(talkTarget(S.emergency)).toBe(SOS_CALL);
  });

  it('hears the channel, and a call once it is answered', () => {
    expect(hears(S.ringing, CALL)).toBe(false);
    expect(hears(S.inCall, CALL)).toBe(true);
    expect(hears(S.inCall, CH)).toBe(true);
    expect(hears(S.idle, OTHER_CH)).toBe(false);
  });

  it('a state that does not change is the same object (no re-render)', () => {
    expect(talkStep(S.idle, { type: 'release' }).state).toBe(S.idle);
  });
});
