import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { Metrics } from '../../src/core/metrics.js';
import type { FloorEffect, FloorState, Talker } from '../../src/talk/floorMachine.js';
import type { FloorNote, SharedFloor, SharedFloors } from '../../src/talk/sharedFloors.js';
import { SharedRooms } from '../../src/talk/sharedRooms.js';
import { TalkRoom } from '../../src/talk/talkRoom.js';

// A listener instance's view of a shared floor held elsewhere (issue 50, goal 2; the 11:17 CI run's
// second floorIdle): its lease checks against Redis and the notes that come over pub/sub, in fake
// time. Redis is a map here, so a row can put a note late, lose it, or let the lease lapse.
const LEASE_MS = 4_000;
const STEP = LEASE_MS / 8;
const TALKER: Talker = { key: 'U7', uid: 7, name: 'field 7', priority: 1 };
const TAKEN: FloorState = { name: 'taken', holder: TALKER, grantedAt: 0, lastAudioAt: 0 };

/** Redis's floor of one channel: the version counter, and the floor with its lease. */
class FakeFloors {
  readonly options = { leaseMs: LEASE_MS };
  version = 0;
  floor: { token: number; state: FloorState; until: number } | null = null;

  constructor(private readonly clock: FakeClock) {}

  /** Another instance writes (CAS): a new version, and the note it will publish. */
  write(state: FloorState, effects: FloorEffect[]): FloorNote {
    this.version += 1;
    const token = state.name === 'idle' ? 0 : this.version;
    this.floor = state.name === 'idle' ? null : { token, state, until: this.clock.now() + LEASE_MS };
    return { cid: 1, state, token, version: this.version, effects, changed: true };
  }

  async read(): Promise<SharedFloor> {
    await Promise.resolve();
    const live = this.floor && this.floor.until > this.clock.now() ? this.floor : null;
    return live
      ? { state: live.state, token: live.token, version: this.version }
      : { state: { name: 'idle' }, token: 0, version: this.version };
  }

  renew(): Promise<boolean> {
    throw new Error('the holder is not on this instance');
  }
}

type Step =
  /** The holder's instance wrote this; its note reaches this instance only with `note`. */
  | { write: 'taken' | 'idle' }
  /** The last write's note arrives. */
  | { note: true }
  /** Time moves on `ms`, this instance's talk tick running every 50 ms. */
  | { advance: number }
  /** The holder's instance stops renewing (it froze or died). */
  | { freeze: true };

interface Row {
  rule: string;
  steps: Step[];
  /** What this instance pushed to its listeners, in order. */
  told: string[];
}

const ROWS: Row[] = [
  {
    rule: 'a release whose note comes before the next check: one floorIdle',
    steps: [
      { write: 'taken' },
      { note: true },
      { advance: 1_000 },
      { write: 'idle' },
      { note: true },
      { advance: 1_000 },
    ],
    told: ['floorTaken', 'floorIdle'],
  },
  {
    rule: 'a check that reads the release before its note: the note announces it, once',
    steps: [
      { write: 'taken' },
      { note: true },
      { advance: 1_000 },
      { write: 'idle' },
      { advance: STEP },
      { note: true },
      { advance: 1_000 },
    ],
    told: ['floorTaken', 'floorIdle'],
  },
  {
    rule: 'a release whose note was lost: the check after next follows Redis',
    steps: [{ write: 'taken' }, { note: true }, { advance: 1_000 }, { write: 'idle' }, { advance: 2 * STEP }],
    told: ['floorTaken', 'floorIdle'],
  },
  {
    rule: 'a floor renewed by its holder stays taken',
    steps: [{ write: 'taken' }, { note: true }, { advance: 3 * LEASE_MS }],
    told: ['floorTaken'],
  },
  {
    rule: 'a holder that froze: idle within the lease and one step',
    steps: [{ write: 'taken' }, { note: true }, { freeze: true }, { advance: LEASE_MS + STEP }],
    told: ['floorTaken', 'floorIdle'],
  },
  {
    rule: 'a holder that froze: still taken just before the lease ends',
    steps: [{ write: 'taken' }, { note: true }, { freeze: true }, { advance: LEASE_MS - 100 }],
    told: ['floorTaken'],
  },
];

async function play(row: Row): Promise<string[]> {
  const clock = new FakeClock();
  const floors = new FakeFloors(clock);
  const room = new TalkRoom(1, 1, 'group', { maxTalkMs: 60_000, silenceMs: 2_000, revokeGraceMs: 500 }, false, 'ch');
  const told: string[] = [];
  room.tell = (message) => void told.push(message.type);
  const settle = (target: TalkRoom, state: FloorState, effects: FloorEffect[]): void => {
    target.floor = state;
    for (const effect of effects) {
      if (effect.kind === 'granted' && !effect.again)
        target.tell({ type: 'floorTaken', cid: 1, uid: 7, name: '', priority: 1 });
      if (effect.kind === 'idle') target.tell({ type: 'floorIdle', cid: 1 });
    }
  };
  const errors: unknown[] = [];
  const log = { error: (entry: unknown) => errors.push(entry) } as never;
  const rooms = new SharedRooms(
    floors as unknown as SharedFloors,
    settle,
    log,
    new Metrics({ defaults: false }),
    clock,
  );
  let note: FloorNote | null = null;
  let frozen = false;
  // The holder's instance renews every step while it runs; this instance ticks every 50 ms.
  clock.interval(() => {
    if (!frozen && floors.floor) floors.floor.until = clock.now() + LEASE_MS;
  }, STEP);
  clock.interval(() => room.floor.name !== 'idle' && rooms.tick(room, false, clock.now()), 50);
  for (const step of row.steps) {
    if ('write' in step) {
      note =
        step.write === 'taken'
          ? floors.write(TAKEN, [{ kind: 'granted', request: { talker: TALKER, seq: 1 } }])
          : floors.write({ name: 'idle' }, [{ kind: 'ended', talker: TALKER }, { kind: 'idle' }]);
    } else if ('note' in step) {
      if (note) rooms.apply(room, note, clock.now());
    } else if ('freeze' in step) {
      frozen = true;
    } else {
      await clock.advance(step.advance);
    }
  }
  expect(errors).toEqual([]);
  return told;
}

describe('a shared floor seen from a listener instance: lease checks and notes', () => {
  it.each(ROWS)('$rule', async (row) => {
    expect(await play(row)).toEqual(row.told);
  });
});
