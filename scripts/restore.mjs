#!/usr/bin/env node
// `npm run restore -- <backup directory>`: puts a backup made by `npm run backup` in DATA_DIR.
// The server must be stopped (refused while a process has the database open). The current data
// directory is kept beside it as <DATA_DIR>.before-restore-<UTC time>, never deleted. The restored
// DATA_DIR is owner-only (0700, database 0600) whatever the backup's modes were.
// PostgreSQL deployments use pg_restore (docs/operations.md "Backups").
import fs from 'node:fs';
import path from 'node:path';
import { DB_FILE, dataDir, inUse, quickCheck, refusePostgres } from './sqliteData.mjs';

refusePostgres(process.env, 'npm run restore');
const from = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
if (!from || !fs.existsSync(path.join(from, DB_FILE))) {
  process.stderr.write('usage: npm run restore -- <backup directory holding intercom.sqlite>\n');
  process.exit(1);
}
const check = quickCheck(path.join(from, DB_FILE));
if (check !== 'ok') {
  process.stderr.write(`the backup fails its integrity check: ${check}\n`);
  process.exit(1);
}

const target = dataDir();
const current = path.join(target, DB_FILE);
if (fs.existsSync(current) && inUse(current)) {
  process.stderr.write(`a running server has ${current} open: stop it first, then restore\n`);
  process.exit(1);
}
let keptAt;
if (fs.existsSync(target)) {
  keptAt = `${target}.before-restore-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, 'Z')}`;
  fs.renameSync(target, keptAt);
}
fs.mkdirSync(target, { recursive: true, mode: 0o700 });
fs.chmodSync(target, 0o700);
fs.cpSync(from, target, { recursive: true, filter: (file) => path.basename(file) !== 'backup.json' });
fs.chmodSync(target, 0o700);
fs.chmodSync(current, 0o600);
process.stderr.write(
  `restored ${from} into ${target}${keptAt ? `; the previous data directory is at ${keptAt}` : ''}\n`,
);
