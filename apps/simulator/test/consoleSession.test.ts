import { NotificationTypes, checkNewPassword } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { ConsoleLoginError } from '../src/adminApi.js';
import { startFleet } from '../src/fleet.js';
import { parseOptions } from '../src/options.js';
import { SIM_ACCOUNT, simulatorPassword } from '../src/simAccount.js';
import { sleep, until } from '../../server/test/hub/hubTestApp.js';
import { fleetOptions, simTerminal, useSimServer } from './fleetFixtures.js';
import { adminToken, postJson } from './seatOf.js';

// Issue 51: the simulator ends nobody's console session (it works as its own account), a restart
// keeps the settings a person changed, and no terminal is reported offline while connected.

describe('simulator account options', () => {
  it('works as "simulator" by default, or as the account --sim-account names', () => {
    expect(parseOptions([], {})).toMatchObject({ account: 'admin', simAccount: SIM_ACCOUNT });
    expect(parseOptions(['--sim-account', 'fleet', '--sim-password', 'pw'], {})).toMatchObject({
      simAccount: 'fleet',
      simPassword: 'pw',
    });
    expect(parseOptions([], { SIM_PASSWORD: 'from-env' }).simPassword).toBe('from-env');
  });

  it.each([[['--sim-account', '']], [['--sim-account', ' ']], [['--sim-account', 'x'.repeat(65)]]])(
    'refuses %j',
    (argv) => {
      expect(() => parseOptions(argv, {})).toThrow('--sim-account');
    },
  );

  it('derives a password that passes the password rule, stable per admin password, enterprise and account', () => {
    for (const admin of ['a', 'Admin#2026', '密码密码', 'x'.repeat(64)]) {
      const password = simulatorPassword(admin, 'DEMO', SIM_ACCOUNT);
      expect(checkNewPassword(password)).toBeNull();
      expect(simulatorPassword(admin, 'DEMO', SIM_ACCOUNT)).toBe(password);
      expect(simulatorPassword(admin, 'ACME', SIM_ACCOUNT)).not.toBe(password);
      expect(simulatorPassword(`${admin}!`, 'DEMO', SIM_ACCOUNT)).not.toBe(password);
    }
  });
});

describe('the simulator against a server', () => {
  const t = useSimServer();

  const options = () =>
    fleetOptions(t, {
      simAccount: SIM_ACCOUNT,
      terminals: 1,
      radiusKm: 0.2,
      phoneStart: '19500000000',
      checkInMinutes: 2,
    });

  /** True while the console session of `token` still answers. */
  const signedIn = async (token: string) => {
    const res = await fetch(`${t.origin}/api/Account/Profile`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { BaseResult?: { Code: number } }).BaseResult?.Code === 8888;
  };

  const enterpriseSetting = () =>
    t.db
      .selectFrom('safety_setting')
      .select('CheckInMinutes')
      .where('TargetKind', '=', 'enterprise')
      .where('E_ID', '=', t.demo.E_ID)
      .execute();

  it('sets its own account up once; later runs leave the admin signed in and the settings a person changed', async () => {
    const lines: string[] = [];
    const first = await startFleet(options(), (line) => lines.push(line));
    await until(() => first.stats.loggedIn === 1, 'the first run online', 10_000);
    await first.stop();
    expect(lines.some((line) => line.includes(`setting up the console account "${SIM_ACCOUNT}"`))).toBe(true);
    const account = await t.db
      .selectFrom('account')
      .select(['Role', 'E_ID'])
      .where('LoginName', '=', SIM_ACCOUNT)
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ Role: 'admin', E_ID: t.demo.E_ID });
    expect(await enterpriseSetting()).toEqual([{ CheckInMinutes: 2 }]);

    // A person signs in and changes the safety setting; then the simulator starts again.
    const token = await adminToken(t);
    await postJson(t, token, '/api/Safety/Settings', { CheckInMinutes: 7, GraceMinutes: 1, NoMovementMinutes: 0 });
    lines.length = 0;
    const again = await startFleet(options(), (line) => lines.push(line));
    await until(() => again.stats.loggedIn === 1, 'the second run online', 10_000);
    await again.stop();
    expect(await signedIn(token)).toBe(true);
    expect(await enterpriseSetting()).toEqual([{ CheckInMinutes: 7 }]);
    expect(lines.some((line) => line.includes('setting up'))).toBe(false);
    expect(lines).toContain(`lone worker: the enterprise keeps its safety setting; 19500000000 lets some pass`);
  });

  it('refuses a wrong own password without the admin password, and signs nobody out', async () => {
    const token = await adminToken(t);
    const wrong = { ...options(), password: undefined, simPassword: 'Wrong#2026' };
    await expect(startFleet(wrong, () => undefined)).rejects.toBeInstanceOf(ConsoleLoginError);
    await expect(startFleet({ ...options(), password: undefined }, () => undefined)).rejects.toThrow(
      'the admin password is needed',
    );
    expect(await signedIn(token)).toBe(true);
  });

  it('gives a login answered too late up and logs in anew: the user is not reported offline', async () => {
    const { phone, U_ID, stats, terminal } = await simTerminal(t, { requestTimeoutMs: 300 });
    const gateway = t.terminals.gateway;
    const login = gateway.login.bind(gateway);
    let slow = true;
    // The server is busy (a first start: scrypt for every login): this login's answer comes after the terminal's timeout.
    gateway.login = async (connection, message) => {
      if (slow && message.phone === phone) {
        slow = false;
        await sleep(800);
      }
      return login(connection, message);
    };
    try {
      terminal.start();
      await until(() => stats.loggedIn === 1 && stats.acked >= 3, 'online after a second login', 10_000);
      expect(slow).toBe(false);
      expect(stats.reconnects).toBe(1);
      // Past the heartbeat timeout (2 s here) of a login the terminal had given up.
      await sleep(3_000);
      await t.terminals.service.alarms.settle();
      const offline = await t.db
        .selectFrom('notification')
        .select('N_ID')
        .where('U_ID', '=', U_ID)
        .where('NType', '=', NotificationTypes.offline)
        .execute();
      expect(offline).toEqual([]);
      expect(t.deps.realtime.live.user(t.demo.E_ID, U_ID)?.online).toBe(true);
    } finally {
      gateway.login = login;
      await terminal.stop();
    }
  });
});
