import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/database.js';

// DATA_DIR holds the password hashes and the login private key (table server_key): the folder, the
// SQLite files and `npm run backup`'s copy are owner-only under the usual umask 022.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-modes-'));
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
let umask: number;

beforeEach(() => {
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  vi.restoreAllMocks();
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A SQLite DATA_DIR the way the server leaves it: tables written, WAL files present. */
async function openWritten(dataDir: string) {
  const database = openDatabase({ databaseUrl: undefined, dataDir });
  await sql`create table secret (v text)`.execute(database.db);
  await sql`insert into secret values ('hash')`.execute(database.db);
  return database;
}

const sqliteFiles = (dataDir: string) => ['', '-wal', '-shm'].map((s) => path.join(dataDir, `intercom.sqlite${s}`));

describe('DATA_DIR and the SQLite files', () => {
  it('are created owner-only: folder 0700 (with its missing parents), database, -wal and -shm 0600', async () => {
    const dataDir = path.join(work, 'fresh', 'nested', 'data');
    const database = await openWritten(dataDir);
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path.join(work, 'fresh'))).toBe(0o700);
      for (const file of sqliteFiles(dataDir)) expect([file, modeOf(file)]).toEqual([file, 0o600]);
    } finally {
      await database.close();
    }
  });

  it('tightens a folder and files an older version left readable by others, and says so once', async () => {
    const dataDir = path.join(work, 'old');
    await (await openWritten(dataDir)).close();
    fs.chmodSync(dataDir, 0o755);
    for (const file of sqliteFiles(dataDir)) if (fs.existsSync(file)) fs.chmodSync(file, 0o644);
    const said = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);

    const first = openDatabase({ databaseUrl: undefined, dataDir });
    await first.close();
    const second = openDatabase({ databaseUrl: undefined, dataDir });
    await second.close();

    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'intercom.sqlite'))).toBe(0o600);
    const lines = said.mock.calls.map(([text]) => String(text)).filter((text) => text.includes(dataDir));
    expect(lines).toEqual([expect.stringContaining('had mode 755: made owner-only (0700)')]);
  });
});

describe('npm run backup and restore', () => {
  const script = (name: string, args: string[], env: Record<string, string>) =>
    promisify(execFile)(
      'sh',
      ['-c', `umask 022 && exec "${process.execPath}" "$@"`, 'sh', path.join(root, 'scripts', name), ...args],
      {
        env: { ...process.env, DATABASE_URL: '', ...env },
      },
    );

  it('write an owner-only copy, and restore to an owner-only DATA_DIR', async () => {
    const live = path.join(work, 'live');
    const database = await openWritten(live);
    await database.close();
    fs.mkdirSync(path.join(live, 'media'));
    fs.writeFileSync(path.join(live, 'media', 'logo.png'), 'not really a png');

    const backup = await script('backup.mjs', ['--out', path.join(work, 'backups')], { DATA_DIR: live });
    const copy = backup.stdout.trim().split('\n').at(-1) ?? '';
    expect(modeOf(copy)).toBe(0o700);
    expect(modeOf(path.join(copy, 'intercom.sqlite'))).toBe(0o600);
    expect(modeOf(path.join(copy, 'backup.json'))).toBe(0o600);

    // A backup copied around with looser modes still restores owner-only.
    fs.chmodSync(copy, 0o755);
    fs.chmodSync(path.join(copy, 'intercom.sqlite'), 0o644);
    const restored = path.join(work, 'restored');
    await script('restore.mjs', [copy], { DATA_DIR: restored });
    expect(modeOf(restored)).toBe(0o700);
    expect(modeOf(path.join(restored, 'intercom.sqlite'))).toBe(0o600);
    expect(fs.readFileSync(path.join(restored, 'media', 'logo.png'), 'utf8')).toBe('not really a png');
  });
});
