import { describe, expect, it } from 'vitest';
import {
  IDLE,
  holds,
  stepFloor,
  type FloorEvent,
  type FloorLimits,
  type FloorRequest,
  type FloorState,
  type Talker,
} from '../../src/talk/floorMachine.js';

// Every transition of the floor (3GPP TS 24.380 arbitration: idle, taken, pending revoke), one row each.
const limits: FloorLimits = { maxTalkMs: 60_000, silenceMs: 2_000, revokeGraceMs: 100 };
const talker = (key: string, priority: number): Talker => ({
  key,
  uid: Number(key.slice(1)) || 0,
  name: key,
  priority,
});
const A = talker('U1', 3);
const B = talker('U2', 3);
const C = talker('U3', 5);
const D = talker('D9', 7);
const req = (t: Talker, seq = 1): FloorRequest => ({ talker: t, seq });

const T0 = 1_000_000;
const taken = (holder: Talker, lastAudioAt = T0): FloorState => ({ name: 'taken', holder, grantedAt: T0, lastAudioAt });
const pending = (holder: Talker, next: FloorRequest): FloorState => ({
  name: 'pendingRevoke',
  holder,
  grantedAt: T0,
  lastAudioAt: T0,
  revokedAt: T0 + 500,
  next,
});

interface Row {
  name: string;
  from: FloorState;
  event: FloorEvent;
  to: FloorState;
  effects: unknown[];
}

/** A row where the event changes nothing: the same state, no effects. */
const unchanged = (name: string, from: FloorState, event: FloorEvent): Row => ({
  name,
  from,
  event,
  to: from,
  effects: [],
});

const rows: Row[] = [
  // idle
  {
    name: 'idle + request: granted',
    from: IDLE,
    event: { kind: 'request', request: req(A), now: T0 },
    to: taken(A),
    effects: [{ kind: 'granted', request: req(A) }],
  },
  unchanged('idle + release: stays idle', IDLE, { kind: 'release', key: 'U1', now: T0 }),
  unchanged('idle + audio: dropped', IDLE, { kind: 'audio', key: 'U1', now: T0 }),
  unchanged('idle + flood: nothing', IDLE, { kind: 'flood', key: 'U1', now: T0 }),
  unchanged('idle + tick: nothing', IDLE, { kind: 'tick', now: T0 }),
  // taken
  {
    name: 'taken + request by the holder: granted again, no new burst',
    from: taken(A),
    event: { kind: 'request', request: req(A, 2), now: T0 + 10 },
    to: taken(A),
    effects: [{ kind: 'granted', request: req(A, 2), again: true }],
  },
  {
    name: 'taken + request at equal priority: busy',
    from: taken(A),
    event: { kind: 'request', request: req(B), now: T0 + 10 },
    to: taken(A),
    effects: [{ kind: 'busy', request: req(B) }],
  },
  {
    name: 'taken + request at lower priority: busy',
    from: taken(C),
    event: { kind: 'request', request: req(A), now: T0 + 10 },
    to: taken(C),
    effects: [{ kind: 'busy', request: req(A) }],
  },
  {
    name: 'taken + request at strictly higher priority: holder revoked (preempted), pending revoke',
    from: taken(A),
    event: { kind: 'request', request: req(C), now: T0 + 500 },
    to: pending(A, req(C)),
    effects: [{ kind: 'revoked', talker: A, reason: 'preempted' }],
  },
  {
    name: 'taken + release by the holder: idle',
    from: taken(A),
    event: { kind: 'release', key: 'U1', now: T0 + 10 },
    to: IDLE,
    effects: [{ kind: 'ended', talker: A }, { kind: 'idle' }],
  },
  unchanged('taken + release by another: unchanged', taken(A), { kind: 'release', key: 'U2', now: T0 + 10 }),
  {
    name: 'taken + audio from the holder: silence timer restarts',
    from: taken(A),
    event: { kind: 'audio', key: 'U1', now: T0 + 1_500 },
    to: taken(A, T0 + 1_500),
    effects: [],
  },
  unchanged('taken + audio from another: unchanged', taken(A), { kind: 'audio', key: 'U2', now: T0 + 1_500 }),
  {
    name: 'taken + flood by the holder: revoked (flooding), idle',
    from: taken(A),
    event: { kind: 'flood', key: 'U1', now: T0 + 10 },
    to: IDLE,
    effects: [{ kind: 'revoked', talker: A, reason: 'flooding' }, { kind: 'ended', talker: A }, { kind: 'idle' }],
  },
  unchanged('taken + flood by another: unchanged', taken(A), { kind: 'flood', key: 'U2', now: T0 + 10 }),
  unchanged('taken + tick before any limit: unchanged', taken(A, T0 + 59_000), { kind: 'tick', now: T0 + 59_999 }),
  {
    name: 'taken + tick at maximum talk time: revoked (timeout), idle',
    from: taken(A, T0 + 59_990),
    event: { kind: 'tick', now: T0 + 60_000 },
    to: IDLE,
    effects: [{ kind: 'revoked', talker: A, reason: 'timeout' }, { kind: 'ended', talker: A }, { kind: 'idle' }],
  },
  {
    name: 'taken + tick after 2 s without audio: revoked (silence), idle',
    from: taken(A, T0 + 1_000),
    event: { kind: 'tick', now: T0 + 3_000 },
    to: IDLE,
    effects: [{ kind: 'revoked', talker: A, reason: 'silence' }, { kind: 'ended', talker: A }, { kind: 'idle' }],
  },
  // pending revoke
  {
    name: 'pending revoke + request higher than the waiting one: it takes the place, the waiting one busy',
    from: pending(A, req(C)),
    event: { kind: 'request', request: req(D), now: T0 + 550 },
    to: pending(A, req(D)),
    effects: [{ kind: 'busy', request: req(C) }],
  },
  {
    name: 'pending revoke + request not higher than the waiting one: busy',
    from: pending(A, req(C)),
    event: { kind: 'request', request: req(B), now: T0 + 550 },
    to: pending(A, req(C)),
    effects: [{ kind: 'busy', request: req(B) }],
  },
  {
    name: 'pending revoke + request by the revoked holder: busy',
    from: pending(A, req(C)),
    event: { kind: 'request', request: req({ ...A, priority: 7 }), now: T0 + 550 },
    to: pending(A, req(C)),
    effects: [{ kind: 'busy', request: req({ ...A, priority: 7 }) }],
  },
  {
    name: 'pending revoke + release by the holder: the waiting requester is granted',
    from: pending(A, req(C)),
    event: { kind: 'release', key: 'U1', now: T0 + 550 },
    to: { name: 'taken', holder: C, grantedAt: T0 + 550, lastAudioAt: T0 + 550 },
    effects: [
      { kind: 'ended', talker: A },
      { kind: 'granted', request: req(C) },
    ],
  },
  {
    name: 'pending revoke + release by the waiting requester: refused, idle',
    from: pending(A, req(C)),
    event: { kind: 'release', key: 'U3', now: T0 + 550 },
    to: IDLE,
    effects: [{ kind: 'busy', request: req(C) }, { kind: 'ended', talker: A }, { kind: 'idle' }],
  },
  unchanged('pending revoke + release by a bystander: unchanged', pending(A, req(C)), {
    kind: 'release',
    key: 'U2',
    now: T0 + 550,
  }),
  {
    name: 'pending revoke + audio from the holder: still relayed during the grace',
    from: pending(A, req(C)),
    event: { kind: 'audio', key: 'U1', now: T0 + 520 },
    to: { ...pending(A, req(C)), lastAudioAt: T0 + 520 } as FloorState,
    effects: [],
  },
  unchanged('pending revoke + audio from another: unchanged', pending(A, req(C)), {
    kind: 'audio',
    key: 'U3',
    now: T0 + 520,
  }),
  {
    name: 'pending revoke + flood by the holder: handed over at once',
    from: pending(A, req(C)),
    event: { kind: 'flood', key: 'U1', now: T0 + 520 },
    to: { name: 'taken', holder: C, grantedAt: T0 + 520, lastAudioAt: T0 + 520 },
    effects: [
      { kind: 'ended', talker: A },
      { kind: 'granted', request: req(C) },
    ],
  },
  unchanged('pending revoke + flood by another: unchanged', pending(A, req(C)), {
    kind: 'flood',
    key: 'U3',
    now: T0 + 520,
  }),
  unchanged('pending revoke + tick within the grace: unchanged', pending(A, req(C)), { kind: 'tick', now: T0 + 599 }),
  {
    name: 'pending revoke + tick at the end of the grace: the waiting requester is granted',
    from: pending(A, req(C)),
    event: { kind: 'tick', now: T0 + 600 },
    to: { name: 'taken', holder: C, grantedAt: T0 + 600, lastAudioAt: T0 + 600 },
    effects: [
      { kind: 'ended', talker: A },
      { kind: 'granted', request: req(C) },
    ],
  },
];

describe('floor state machine', () => {
  it.each(rows)('$name', ({ from, event, to, effects }) => {
    const step = stepFloor(from, event, limits);
    expect(step.state).toEqual(to);
    expect(step.effects).toEqual(effects);
  });

  it('covers every pair of state and event kind', () => {
    const pairs = new Set(rows.map((r) => `${r.from.name}/${r.event.kind}`));
    for (const state of ['idle', 'taken', 'pendingRevoke']) {
      for (const kind of ['request', 'release', 'audio', 'flood', 'tick']) expect(pairs).toContain(`${state}/${kind}`);
    }
  });

  it('lets only the holder send audio, including a pre-empted one in its grace time', () => {
    expect(holds(IDLE, 'U1')).toBe(false);
    expect(holds(taken(A), 'U1')).toBe(true);
    expect(holds(taken(A), 'U2')).toBe(false);
    expect(holds(pending(A, req(C)), 'U1')).toBe(true);
    expect(holds(pending(A, req(C)), 'U3')).toBe(false);
  });
});
