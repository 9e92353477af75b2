import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sleep } from './hub/hubTestApp.js';
import {
  builtSuite,
  drive,
  missingAcked,
  root,
  seedTerminalUsers,
  startBuilt,
  store,
} from './terminals/builtServer.js';
import { TestTerminal } from './terminals/terminalTestApp.js';

// `npm run backup` while the built server ingests, `npm run restore` into a new data directory, and
// a server started there has the same data (SQLite; PostgreSQL uses pg_dump, docs/operations.md).
const run = promisify(execFile);
const script = (name: string, args: string[], env: Record<string, string>) =>
  run(process.execPath, [path.join(root, 'scripts', name), ...args], { env: { ...process.env, ...env } });

/** SQLite whatever TEST_DATABASE_URL says: the live and restored data directories live in its dataDir. */
const suite = builtSuite('backup', null);

describe('backup and restore', () => {
  it('backs up during ingest and restores to a working server with the same data', async () => {
    const work = suite.dataDir;
    const live = path.join(work, 'live');
    const restored = path.join(work, 'restored');
    const db = await store(live, 'unused', null);
    const server = await startBuilt(live, db, { DATABASE_URL: '' });
    suite.servers.push(server);
    const terminals = await seedTerminalUsers(db, 8);
    fs.mkdirSync(path.join(live, 'media'), { recursive: true });
    fs.writeFileSync(path.join(live, 'media', 'logo.png'), 'not really a png');
    const acked = new Set<string>();
    const drivers = terminals.map((terminal) => drive(`${server.url}/terminal`, terminal, acked, 10));
    while (acked.size < 500) await sleep(20);

    const ackedBeforeBackup = new Set(acked);
    const backup = await script('backup.mjs', ['--out', path.join(work, 'backups')], { DATA_DIR: live });
    const ackedDuringBackup = acked.size - ackedBeforeBackup.size;
    const backupDir = backup.stdout.trim().split('\n').at(-1) ?? '';
    expect(fs.existsSync(path.join(backupDir, 'intercom.sqlite'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(backupDir, 'backup.json'), 'utf8'))).toMatchObject({ otherFiles: 1 });

    // Restoring over the data of a running server is refused, and changes nothing.
    const refused = await script('restore.mjs', [backupDir], { DATA_DIR: live }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('stop it first') });
    expect(fs.readdirSync(work)).not.toContain(expect.stringContaining('before-restore'));

    for (const d of drivers) d.stop();
    await Promise.all(drivers.map((d) => d.done));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Ingest went on while the backup ran.
    expect(ackedDuringBackup).toBeGreaterThan(0);

    await script('restore.mjs', [backupDir], { DATA_DIR: restored });
    const copy = await store(restored, 'unused', null);
    const { missing, stored } = await missingAcked(copy, ackedBeforeBackup);
    expect(missing).toEqual([]);
    // One instant of the live data: no row the live database does not have, no partial batch.
    const liveRows = new Set(
      (await db.rows(`select "U_ID", "H_Time" from location_history`)).map((r) => `${r.U_ID}:${r.H_Time}`),
    );
    const copyRows = await copy.rows(`select "U_ID", "H_Time" from location_history`);
    expect(copyRows.filter((r) => !liveRows.has(`${r.U_ID}:${r.H_Time}`))).toEqual([]);
    expect(stored).toBeLessThanOrEqual(liveRows.size);
    expect(fs.readFileSync(path.join(restored, 'media', 'logo.png'), 'utf8')).toBe('not really a png');

    // The restored server works: the same terminal users log in and report.
    const again = await startBuilt(restored, copy, { DATABASE_URL: '' });
    suite.servers.push(again);
    const terminalUrl = `${again.url.replace('http', 'ws')}/terminal`;
    const terminal = await TestTerminal.connect({ terminalUrl });
    expect((await terminal.login(terminals[0]?.phone ?? '')).type).toBe('ack');
    expect((await terminal.request({ type: 'position', lat: 22.6, lon: 114.1, time: Date.now() })).type).toBe('ack');
    terminal.close();
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);

    // Restoring over an existing data directory keeps it aside.
    await script('restore.mjs', [backupDir], { DATA_DIR: restored });
    const kept = fs.readdirSync(work).filter((name) => name.startsWith('restored.before-restore-'));
    expect(kept).toHaveLength(1);
    expect(fs.existsSync(path.join(work, kept[0] ?? '', 'intercom.sqlite'))).toBe(true);
  }, 120_000);

  it('refuses PostgreSQL deployments and points to pg_dump', async () => {
    const result = await script('backup.mjs', [], { DATABASE_URL: 'postgres://x@127.0.0.1/y' }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining('pg_dump') });
  });
});
