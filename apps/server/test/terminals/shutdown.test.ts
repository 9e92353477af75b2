import { describe, expect, it } from 'vitest';
import { sleep } from '../hub/hubTestApp.js';
import { builtSuite, drive, missingAcked, seedTerminalUsers, startBuilt } from './builtServer.js';

// SIGTERM during ingest: every fix the server acknowledged is in the database afterwards.
const TERMINALS = 20;
const WINDOW = 20;

const suite = builtSuite('sigterm');

describe('shutdown', () => {
  it('writes every acknowledged fix when SIGTERM arrives during ingest', async () => {
    const server = await startBuilt(suite.dataDir, suite.db);
    suite.servers.push(server);
    const terminals = await seedTerminalUsers(suite.db, TERMINALS);
    const acked = new Set<string>();
    const drivers = terminals.map((terminal) => drive(`${server.url}/terminal`, terminal, acked, WINDOW));
    // Signalled mid-ingest: once over 100 fixes are acknowledged (a fixed sleep saw none on a busy CI).
    for (let waited = 0; acked.size <= 100 && waited < 30_000; waited += 20) await sleep(20);
    const ackedBeforeSignal = acked.size;
    server.child.kill('SIGTERM');
    await Promise.all(drivers.map((d) => d.done));
    expect(await server.exited).toBe(0);
    expect(ackedBeforeSignal).toBeGreaterThan(100);

    const { missing, stored } = await missingAcked(suite.db, acked);
    expect(missing).toEqual([]);
    expect(stored).toBeGreaterThanOrEqual(acked.size);
  }, 60_000);
});
