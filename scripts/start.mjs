#!/usr/bin/env node
// `npm start`: build what is missing or stale, then run the server (Ctrl-C stops it cleanly).
// `npm start -- --demo` (or `npm run demo`): the same on a separate demo database, plus a simulated
// fleet of 20 terminals moving around, two of them cameras (H.264 encoded live by ffmpeg where it is
// installed, else JPEG), so the console shows live data and video at once.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const demo = args.includes('--demo');
const serverArgs = args.filter((a) => a !== '--demo');

const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const env = { ...process.env };
if (demo) {
  // Its own database, so the demo never mixes simulated users into real data; only this machine
  // reaches it unless HOST says otherwise.
  env.DATA_DIR ??= path.join(root, 'data', 'demo');
  env.HOST ??= '127.0.0.1';
  env.ADMIN_PASSWORD ??= demoPassword(env.DATA_DIR);
  // The demo prints one block of its own (below); the server's request log would bury it.
  env.LOG_LEVEL ??= 'warn';
  env.INTERCOM_DEMO = '1';
}

/** The field app's address and a terminal user to sign in with (docs/field-app.md). */
function fieldAppLines(url, phone) {
  return [
    `  Field app:    ${url}/field (a phone on the network needs HTTPS: README "HTTPS for phones")`,
    `    Phone ${phone}, password Sim#2026: a terminal in the first simulated channel`,
  ];
}

/** True when ffmpeg with libx264 is on the PATH: the demo's cameras then send live H.264. */
function hasFfmpegH264() {
  const probe = spawnSync('ffmpeg', ['-hide_banner', '-encoders'], { encoding: 'utf8', timeout: 10_000 });
  return probe.status === 0 && /\blibx264\b/.test(probe.stdout);
}

/** A random admin password made once per demo directory and kept there (no default password exists). */
function demoPassword(dataDir) {
  const file = path.join(dataDir, 'demo-admin-password');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const password = `${randomBytes(9).toString('base64url')}A7!`;
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

const children = [];
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js'), ...serverArgs], {
  stdio: 'inherit',
  env,
});
children.push(server);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => children.forEach((c) => c.kill(signal)));
server.on('exit', (code, signal) => {
  children.forEach((c) => c !== server && c.kill('SIGTERM'));
  process.exit(code ?? (signal ? 0 : 1));
});

if (demo) {
  const url = `http://127.0.0.1:${env.PORT || 8080}`;
  const ready = await waitForReady(url);
  const codec = hasFfmpegH264() ? 'h264' : 'jpeg';
  const camera = codec === 'h264' ? 'H.264, encoded live by ffmpeg' : 'JPEG; install ffmpeg for H.264';
  const block = [
    ready ? `Intercom Management Platform demo is ready at ${url}` : `Intercom Management Platform demo: ${url}`,
    '  Company code: DEMO',
    '  Account:      admin',
    `  Password:     ${process.env.ADMIN_PASSWORD ? 'the one you set in ADMIN_PASSWORD' : env.ADMIN_PASSWORD}`,
    `  Data:         ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : env.DATA_DIR}`,
    `  20 simulated terminals move and talk around Shenzhen; 2 are cameras (${camera}): open Video.`,
    '  Ctrl-C stops the demo.',
  ];
  const simulator = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    [
      '--conditions=development',
      'apps/simulator/src/cli.ts',
      '--url',
      url,
      '--terminals',
      '20',
      '--interval',
      '5',
      '--talk-every',
      '30',
      '--record',
      '--check-in',
      '2',
      // One worker lets a check-in pass now and then: a LoneWorker alarm to see about every 20 minutes.
      '--miss-check-ins',
      '0.1',
      '--video',
      '--video-terminals',
      '2',
      '--video-codec',
      codec,
      // About one SOS in 20 minutes over the fleet (20 terminals, a report each 5 s): the bell stays readable.
      '--sos-rate',
      '0.0002',
      '--quiet',
      // One more user in the first channel, not simulated: a person opens the field app with it.
      '--spare-users',
      '1',
      // The simulator works as its own account "simulator"; admin's password only sets that up on the
      // first start (nobody is signed in yet), so no restart signs a person's console out.
      '--account',
      'admin',
      '--password',
      env.ADMIN_PASSWORD,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env },
  );
  children.push(simulator);
  // The block comes once the simulator has set the demo up and logged out (its FLEET_READY line,
  // apps/simulator/src/fleet.ts): on the first start it logs in as admin once to make its own
  // account, and a login from the block before that would be replaced (one session per account).
  let printed = false;
  const printBlock = () => {
    if (printed) return;
    printed = true;
    process.stdout.write(`\n${block.join('\n')}\n\n`);
  };
  const setupTimer = setTimeout(printBlock, 120_000);
  let pending = '';
  simulator.stdout.on('data', (chunk) => {
    pending += String(chunk);
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      process.stdout.write(`${line}\n`);
      const spare = /spare users, not simulated: (\d+)/.exec(line);
      if (spare) block.splice(block.length - 1, 0, ...fieldAppLines(url, spare[1]));
      if (line.includes('setup done, console session ended')) {
        clearTimeout(setupTimer);
        printBlock();
      }
    }
  });
  simulator.on('exit', (code) => {
    clearTimeout(setupTimer);
    printBlock();
    if (code) process.stderr.write(`The simulator stopped (exit ${code}); the server keeps running.\n`);
  });
}

/** True once the server answers /readyz (within a minute). */
async function waitForReady(url) {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) return false;
    try {
      if ((await fetch(`${url}/readyz`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
