#!/usr/bin/env node
// `npm run backup [-- --out <dir>]`: a consistent copy of a SQLite deployment while it serves.
// The database goes through SQLite's online backup API in one step (one read snapshot, so ingest
// goes on and the copy is of one instant); the other files of DATA_DIR (uploaded media,
// recordings) are copied after it. Writes <out>/intercom-<UTC time>/ (default out: ./backups) and
// prints that path last. The copy is owner-only (folder 0700, database and manifest 0600), like DATA_DIR:
// it holds the password hashes and the login private key. PostgreSQL deployments use pg_dump
// (docs/operations.md "Backups").
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE, dataDir, isDatabaseFile, quickCheck, refusePostgres } from './sqliteData.mjs';

refusePostgres(process.env, 'npm run backup');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const outRoot = path.resolve(outAt >= 0 ? (args[outAt + 1] ?? '') : process.env.BACKUP_DIR || './backups');
const source = dataDir();
const sourceFile = path.join(source, DB_FILE);
if (!fs.existsSync(sourceFile)) {
  process.stderr.write(`no database at ${sourceFile} (set DATA_DIR to the server's data directory)\n`);
  process.exit(1);
}

const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, 'Z');
const target = path.join(outRoot, `intercom-${stamp}`);
// mkdir's mode is masked by the umask and never widened by it; chmod makes sure.
fs.mkdirSync(target, { recursive: true, mode: 0o700 });
fs.chmodSync(target, 0o700);
const started = performance.now();

const db = new Database(sourceFile, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 10000');
// Every page in one step: a step of a few pages at a time starts over whenever the server writes.
const { totalPages } = await db.backup(path.join(target, DB_FILE), { progress: () => 0x7fffffff });
db.close();
fs.chmodSync(path.join(target, DB_FILE), 0o600);

let files = 0;
for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
  if (isDatabaseFile(entry.name)) continue;
  fs.cpSync(path.join(source, entry.name), path.join(target, entry.name), { recursive: true });
  files += entry.isDirectory() ? fs.readdirSync(path.join(source, entry.name), { recursive: true }).length : 1;
}

const check = quickCheck(path.join(target, DB_FILE));
if (check !== 'ok') {
  process.stderr.write(`the copy failed its integrity check: ${check}\n`);
  process.exit(1);
}
const manifest = {
  createdAt: new Date().toISOString(),
  source,
  pages: totalPages,
  bytes: fs.statSync(path.join(target, DB_FILE)).size,
  otherFiles: files,
  ms: Math.round(performance.now() - started),
};
fs.writeFileSync(path.join(target, 'backup.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
process.stderr.write(`backup: ${manifest.bytes} bytes of database and ${files} other files in ${manifest.ms} ms\n`);
process.stdout.write(`${target}\n`);
