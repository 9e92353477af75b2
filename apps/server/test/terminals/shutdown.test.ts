import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../realtime/hubTestApp.js';
import {
  buildServer,
  drive,
  missingAcked,
  seedTerminalUsers,
  startBuilt,
  store,
  type BuiltServer,
  type Store,
} from './builtServer.js';

// SIGTERM during ingest: every fix the server acknowledged is in the database afterwards.
const TERMINALS = 20;
const WINDOW = 20;

let server: BuiltServer | undefined;
let dataDir: string;
let db: Store;

beforeAll(async () => {
  buildServer();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-sigterm-'));
  db = await store(dataDir, 'intercom_sigterm');
}, 180_000);
afterAll(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('shutdown', () => {
  it('writes every acknowledged fix when SIGTERM arrives during ingest', async () => {
    server = await startBuilt(dataDir, db);
    const terminals = await seedTerminalUsers(db, TERMINALS);
    const acked = new Set<string>();
    const drivers = terminals.map((terminal) => drive(`${server?.url}/terminal`, terminal, acked, WINDOW));
    await sleep(1500);
    const ackedBeforeSignal = acked.size;
    server.child.kill('SIGTERM');
    await Promise.all(drivers.map((d) => d.done));
    expect(await server.exited).toBe(0);
    expect(ackedBeforeSignal).toBeGreaterThan(100);

    const { missing, stored } = await missingAcked(db, acked);
    expect(missing).toEqual([]);
    expect(stored).toBeGreaterThanOrEqual(acked.size);
  }, 60_000);
});
