import { describe, expect, it } from 'vitest';
import { safetyRig, type SafetyValues, useRuleTestApp } from './safetyRig.js';

// Issue 50, goal 2: the no-movement rule as a table in fake time (docs/safety.md). The watch ticks
// every 5 s on a FakeClock and stores the place stood at in the test database. Standing still starts
// at a fix farther than NoMovementMeters from the place before (or, with no fix yet, at the first
// tick that knows the user's live position); the alarm comes at the first tick NoMovementMinutes
// after it, once a place. The watch reads the settings at its first tick (5 s): a fix is a place
// from then on. Each row: fixes at times (ms from the start, metres north of a fixed
// point), the time it runs to, and the alarms raised, when.
const t = useRuleTestApp();

const ORIGIN = { lat: 22.54, lon: 114.05 };
const north = (metres: number) => ({ lat: ORIGIN.lat + metres / 111_195, lon: ORIGIN.lon });

interface Row {
  name: string;
  settings: SafetyValues;
  /** [at, metres north]. */
  fixes: [number, number][];
  /** The live position the watch sees before any fix (LiveState), if any. */
  position?: { lat: number; lon: number };
  until: number;
  seen: [number, string][];
}

const still = (meters: number, minutes: number) => `NoMovement: No movement beyond ${meters} m for ${minutes} min`;
const THREE = { NoMovementMinutes: 3, NoMovementMeters: 20 };

const TABLE: Row[] = [
  {
    name: 'standing still from a fix: one alarm at the first tick 3 min later, however long it lasts',
    settings: THREE,
    fixes: [[7_000, 0]],
    until: 900_000,
    seen: [[190_000, still(20, 3)]],
  },
  {
    name: 'moves within the distance do not start a new place',
    settings: THREE,
    fixes: [
      [7_000, 0],
      [100_000, 15],
      [150_000, -4],
    ],
    until: 300_000,
    seen: [[190_000, still(20, 3)]],
  },
  {
    name: 'a move beyond the distance starts a new place, with an alarm of its own',
    settings: THREE,
    fixes: [
      [7_000, 0],
      [300_000, 60],
    ],
    until: 600_000,
    seen: [
      [190_000, still(20, 3)],
      [480_000, still(20, 3)],
    ],
  },
  {
    name: 'a move before the alarm starts the time again: the alarm comes 3 min after the move',
    settings: THREE,
    fixes: [
      [7_000, 0],
      [170_000, 100],
    ],
    until: 400_000,
    seen: [[350_000, still(20, 3)]],
  },
  {
    name: 'a user that keeps moving raises nothing; stopped, it alarms 3 min after its last move',
    settings: THREE,
    fixes: Array.from({ length: 8 }, (_, i): [number, number] => [7_000 + i * 50_000, i * 50]),
    until: 600_000,
    seen: [[540_000, still(20, 3)]],
  },
  {
    name: 'no fix yet: standing still starts at the first tick that knows the live position',
    settings: THREE,
    fixes: [],
    position: north(0),
    until: 300_000,
    seen: [[185_000, still(20, 3)]],
  },
  {
    name: 'nothing known of the user (no fix, no live position): nothing',
    settings: THREE,
    fixes: [],
    until: 600_000,
    seen: [],
  },
  {
    name: 'a longer rule, in minutes stood',
    settings: { NoMovementMinutes: 10, NoMovementMeters: 50 },
    fixes: [
      [7_000, 0],
      [300_000, 45],
    ],
    until: 900_000,
    seen: [[610_000, still(50, 10)]],
  },
  {
    name: 'no-movement off (0 minutes): nothing, however long it stands',
    settings: { NoMovementMinutes: 0, NoMovementMeters: 20 },
    fixes: [[7_000, 0]],
    until: 900_000,
    seen: [],
  },
];

describe('no movement, in fake time', () => {
  it.each(TABLE)('$name', async ({ settings, fixes, position, until, seen }) => {
    // Escalation of the alarms raised has a table of its own.
    const rig = await safetyRig(t, settings, { position, escalate: false });
    for (const [at, metres] of fixes) {
      await rig.runTo(at);
      rig.watch.fixes(rig.user, [{ ...north(metres), time: rig.clock.now() }]);
    }
    await rig.runTo(until);
    await rig.close();
    expect(rig.seen).toEqual(seen);
  });
});
