import { NotificationTypes } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { sleep } from '../hub/hubTestApp.js';
import {
  FAST_TERMINALS,
  TERMINAL_PASSWORD,
  TestTerminal,
  createTerminalUser,
  startTerminalApp,
} from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// Issue 51: 8 Offline alarms at a demo's first start while every terminal was online. The password
// checks of 20 logins took longer than the simulator waited; it kept the socket open and silent,
// the server finished the login there, and the heartbeat timeout reported the user offline. A
// client that gives up closes the socket (docs/terminal-protocol.md); this is the server's half:
// a login whose socket closed while the password was checked is dropped, quietly.
describe('a login whose socket closes before the answer', () => {
  const t = useTestApp(() => startTerminalApp(FAST_TERMINALS));

  const offlineAlarms = (U_ID: number) =>
    t.db
      .selectFrom('notification')
      .select('Content')
      .where('U_ID', '=', U_ID)
      .where('NType', '=', NotificationTypes.offline)
      .execute();

  it('puts nobody online and raises no Offline alarm; a login on a new socket then works', async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const gateway = t.terminals.gateway;
    const login = gateway.login.bind(gateway);
    let checking: Promise<void> = Promise.resolve();
    // A busy server: this password check ends after the client has given up and closed.
    gateway.login = (connection, message) => {
      checking = sleep(300).then(() => login(connection, message));
      return checking;
    };
    try {
      const impatient = await TestTerminal.connect(t);
      impatient.send({ type: 'login', phone, password: TERMINAL_PASSWORD });
      impatient.close();
      await impatient.closed;
      await checking;
      expect(t.deps.realtime.live.user(t.demo.E_ID, U_ID)?.online ?? false).toBe(false);
    } finally {
      gateway.login = login;
    }
    // Past the heartbeat timeout (2 s here): nothing was online, so nothing went offline.
    await sleep(2_500);
    await t.terminals.service.alarms.settle();
    expect(await offlineAlarms(U_ID)).toEqual([]);

    const patient = await TestTerminal.connect(t);
    expect(await patient.login(phone)).toMatchObject({ type: 'ack', user: { U_ID } });
    expect(t.deps.realtime.live.user(t.demo.E_ID, U_ID)?.online).toBe(true);
    patient.close();
  });

  it('a login left open and silent is reported offline at the heartbeat timeout (why a client must close)', async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const silent = await TestTerminal.connect(t);
    expect(await silent.login(phone)).toMatchObject({ type: 'ack' });
    await silent.closed;
    // The server's side of the close may come after the client's.
    for (let i = 0; i < 50 && (await offlineAlarms(U_ID)).length === 0; i++) await sleep(50);
    expect(await offlineAlarms(U_ID)).toHaveLength(1);
  });
});
