import { SafetyAlarmTypes } from '@intercom/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/src/core/clock.js';
import { startFleet } from '../src/fleet.js';
import { parseOptions } from '../src/options.js';
import { until } from '../../server/test/hub/hubTestApp.js';
import { fleetOptions, useSimServer } from './fleetFixtures.js';

// The simulator's lone workers (issue 32): every terminal answers checkInDue, the first one lets
// check-ins pass with --miss-check-ins, and that raises LoneWorker alarms on the server.
describe('check-in options', () => {
  it('reads --check-in and --miss-check-ins, off by default', () => {
    expect(parseOptions([], {})).toMatchObject({ checkInMinutes: 0, missCheckIns: 0.3 });
    expect(parseOptions(['--check-in', '2', '--miss-check-ins', '1'], {})).toMatchObject({
      checkInMinutes: 2,
      missCheckIns: 1,
    });
  });

  it.each([[['--check-in', '721']], [['--check-in', '-1']], [['--miss-check-ins', '1.5']], [['--check-in', 'x']]])(
    'refuses %j',
    (argv) => {
      expect(() => parseOptions(argv, {})).toThrow();
    },
  );
});

describe('check-ins against a server', () => {
  const t = useSimServer();
  /** The safety watch's clock: it ticks only when the test calls `tick`. */
  const clock = new FakeClock(Date.now());
  beforeAll(() => {
    t.terminals.service.safety.useClock(clock);
  });

  it('sets the check-ins, answers them, and the worker who lets one pass raises one LoneWorker alarm', async () => {
    const fleet = await startFleet(
      fleetOptions(t, { phoneStart: '19800000000', checkInMinutes: 1, missCheckIns: 1 }),
      () => undefined,
    );
    await until(() => fleet.stats.loggedIn === 3, 'three terminals online', 10_000);
    const watch = t.terminals.service.safety;
    clock.stall(Math.max(0, Date.now() - clock.now()));
    const start = clock.now();
    await watch.tick();
    clock.stall(60_000);
    await watch.tick();
    await until(() => fleet.stats.checkIns === 2 && fleet.stats.checkInsMissed === 1, 'two check-ins, one let pass');
    expect(fleet.stats.checkInsDue).toBe(3);
    clock.stall(start + 2 * 60_000 - clock.now());
    await watch.tick();
    await watch.settle();
    await t.terminals.service.alarms.settle();
    const alarms = await t.db
      .selectFrom('notification as n')
      .innerJoin('terminal_user as u', 'u.UserID', 'n.U_ID')
      .select('u.MobilePhone')
      .where('n.NType', '=', SafetyAlarmTypes.loneWorker)
      .execute();
    expect(alarms.map((a) => a.MobilePhone)).toEqual(['19800000000']);
    expect(fleet.stats.line()).toContain('check-ins 2/3 (missed on purpose 1)');
    await fleet.stop();
  });
});
