import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../e2e/support/freePort.js';

export { freePort };

export const root = path.resolve(new URL('.', import.meta.url).pathname, '../..');
export const BENCH_PASSWORD = 'Bench-Admin-2026!';

export interface RunningServer {
  url: string;
  process: ChildProcess;
  dataDir: string;
  /** Milliseconds from spawn to the first 200 of /readyz. */
  readyMs: number;
  stop(): Promise<void>;
}

/**
 * Starts the built server on a fresh data directory (or DATABASE_URL when given); `nodeArgs` go to
 * node before the script (e.g. `--cpu-prof`, which NODE_OPTIONS may not carry), and so do those of
 * BENCH_SERVER_NODE_ARGS (space-separated, e.g. `--heap-prof --heap-prof-dir=/tmp/heap`) in any bench.
 * BENCH_SERVER_STDOUT=1 passes the server's standard output through (what `--trace-gc` prints).
 */
export async function startServer(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-bench-'));
  // `env.PORT`: that port (a restart on the same address, as bench/fleet.ts does); else a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const started = performance.now();
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...extra, ...nodeArgs, path.join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: BENCH_PASSWORD,
      LOG_LEVEL: 'warn',
      LOGIN_IP_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const readyMs = performance.now() - started;
  return {
    url,
    process: child,
    dataDir,
    readyMs,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident set size of a process in MiB, from /proc. */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 100) / 100;
}
