// postgres: two built instances on one PostgreSQL database and one Redis (it runs in that pass only).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sleep } from '../hub/hubTestApp.js';
import { builtSuite, seedTerminalUsers, startBuilt } from '../terminals/builtServer.js';
import { REDIS_URL } from '../terminals/scaleOutApps.js';
import { TestTerminal } from '../terminals/terminalTestApp.js';
import { SPEECH, isType, talk } from './talkFixtures.js';

// The other half of docs/decisions.md "Floor leases survive a stall": an instance frozen (SIGSTOP)
// for longer than the lease loses its floors, and the other instance gives the floor to someone
// else. Two built servers, each its own process, on one PostgreSQL database and one Redis.
const LEASE_MS = 4_000; // DEFAULT_LEASE_MS: the built servers run the production lease.
const CID = 9_001;

describe.skipIf(!process.env.TEST_DATABASE_URL)('a floor held on a frozen instance (PostgreSQL + Redis)', () => {
  const suite = builtSuite('floorfreeze');

  it('goes idle on the other instance while the holder is frozen, and the holder follows once it wakes', async () => {
    const env = { REDIS_URL, REDIS_PREFIX: `floorfreeze-${randomUUID().slice(0, 8)}` };
    const a = await startBuilt(`${suite.dataDir}/a`, suite.db, env);
    suite.servers.push(a);
    const b = await startBuilt(`${suite.dataDir}/b`, suite.db, env);
    suite.servers.push(b);
    const [onA, onB] = await seedTerminalUsers(suite.db, 2);
    if (!onA || !onB) throw new Error('two users');
    await suite.db.exec(
      `insert into channel ("CID","E_ID","CName","CTypeID","Note","Priority","VideoEnable","Record","CreatedAt") values ($1,1,'Freeze',106,'',0,0,0,$2)`,
      [CID, Date.now()],
    );
    for (const user of [onA, onB]) {
      await suite.db.exec(`insert into channel_member ("CID","UserID","E_ID","Priority") values ($1,$2,1,0)`, [
        CID,
        user.U_ID,
      ]);
    }
    const terminalAt = async (url: string, phone: string) => {
      const terminal = await TestTerminal.connect({ terminalUrl: `${url.replace('http', 'ws')}/terminal` });
      expect((await terminal.login(phone)).type).toBe('ack');
      expect((await terminal.request({ type: 'join', cid: CID })).type).toBe('ack');
      return terminal;
    };
    const talker = await terminalAt(a.url, onA.phone);
    const listener = await terminalAt(b.url, onB.phone);

    expect(await talker.request({ type: 'floorRequest', cid: CID })).toMatchObject({ granted: true });
    await listener.next(isType('floorTaken', { cid: CID, uid: onA.U_ID }));
    const speech = Array.from({ length: 400 }, (_, i) => SPEECH[i % SPEECH.length] as Buffer);
    // The talker keeps talking throughout, as a person would: its frames wait in A's socket.
    const talking = talk(talker, CID, speech, 20);
    await sleep(500);

    a.child.kill('SIGSTOP');
    // Frozen for the lease plus 2 s: the floor must go idle on B within that time.
    const idle = listener.next(isType('floorIdle', { cid: CID }), LEASE_MS + 2_000).then(
      () => true,
      () => false,
    );
    const wentIdle = await idle;
    const granted = wentIdle ? await listener.request({ type: 'floorRequest', cid: CID }) : null;
    a.child.kill('SIGCONT');
    expect(wentIdle, 'floorIdle on B while A was frozen').toBe(true);
    expect(granted).toMatchObject({ granted: true });
    // A, awake, finds the floor held by B's listener and tells its own terminal.
    await talker.next(isType('floorTaken', { cid: CID, uid: onB.U_ID }), 10_000);
    await talking;
    talker.close();
    listener.close();
  }, 120_000);
});
