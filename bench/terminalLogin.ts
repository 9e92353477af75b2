// A reconnect storm with and without `resume` tokens: every terminal logs in at once, as after an
// instance restart sends them all to another, against the built server (SQLite) with passwords hashed
// at the production cost (scrypt N = 2^17, r = 8: about 0.6 s of a core and 128 MiB each). First
// with the password alone (a terminal without a token), then with the token the first login handed
// out. Prints, for each, the time until the last ack, the server's CPU seconds and its peak RSS.
//   node scripts/build.mjs && npx tsx bench/terminalLogin.ts
// LOGIN_BENCH_TERMINALS (40): terminals in the storm.
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { hashPassword } from '../apps/server/src/auth/passwords.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { rssMiB, startServer } from './support/startServer.js';
import { TerminalPeer, cpuSeconds } from './support/terminalPeer.js';

const TERMINALS = Number(process.env.LOGIN_BENCH_TERMINALS ?? 40);
const PRODUCTION_LOG_N = 17;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const server = await startServer();
const pid = server.process.pid as number;
try {
  await seedTerminals({ dataDir: server.dataDir }, TERMINALS, 0);
  const db = new SQLite(path.join(server.dataDir, 'intercom.sqlite'));
  db.pragma('busy_timeout = 10000');
  db.prepare(`update terminal_user set "PasswordHash" = ?`).run(await hashPassword(SEED_PASSWORD, PRODUCTION_LOG_N));
  db.close();
  const url = `${server.url.replace('http', 'ws')}/terminal`;
  const tokens = new Map<number, string>();

  /** All terminals log in at once; returns the wall time to the last ack, CPU seconds and peak RSS. */
  async function storm(withTokens: boolean) {
    let peak = rssMiB(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
    const cpu = cpuSeconds(pid);
    const started = performance.now();
    const peers = await Promise.all(
      Array.from({ length: TERMINALS }, async (_, i) => {
        const resume = withTokens ? tokens.get(i) : undefined;
        const peer = await TerminalPeer.open(url, {
          phone: terminalPhone(i),
          password: SEED_PASSWORD,
          ...(resume ? { resume } : {}),
        });
        return { i, peer };
      }),
    );
    const wallMs = performance.now() - started;
    clearInterval(sampler);
    const figure = {
      terminals: TERMINALS,
      lastAckMs: Math.round(wallMs),
      serverCpuSeconds: Math.round((cpuSeconds(pid) - cpu) * 100) / 100,
      serverCpuMsPerLogin: Math.round(((cpuSeconds(pid) - cpu) * 1000) / TERMINALS),
      peakRssMiB: peak,
    };
    for (const { peer } of peers) peer.close();
    return { figure, peers };
  }

  const load = os.loadavg().map((value) => value.toFixed(2));
  const first = await storm(false);
  // The tokens the password logins handed out, as each terminal keeps its own.
  for (const { i, peer } of first.peers) {
    const token = peer.loginAck?.resume;
    if (typeof token === 'string') tokens.set(i, token);
  }
  if (tokens.size !== TERMINALS) throw new Error(`only ${tokens.size} of ${TERMINALS} logins handed out a token`);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const second = await storm(true);
  const result = {
    bench: 'terminal login storm',
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    loadBefore: load,
    passwordHash: `scrypt N=2^${PRODUCTION_LOG_N} r=8`,
    password: first.figure,
    resume: second.figure,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  log(
    `password: last ack ${first.figure.lastAckMs} ms, ${first.figure.serverCpuMsPerLogin} ms CPU a login; resume: ${second.figure.lastAckMs} ms, ${second.figure.serverCpuMsPerLogin} ms`,
  );
} finally {
  await server.stop();
}
