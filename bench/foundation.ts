import { execFileSync } from 'node:child_process';
import { BENCH_PASSWORD, percentile, rssMiB, startServer } from './support/startServer.js';
import { login } from './support/login.js';

/**
 * Figures of the foundation issue: cold start to ready, RSS after start, login p50/p99, and
 * requests per second with p99 of an authenticated GET on loopback.
 */
async function coldStart() {
  const runs: { readyMs: number; rss: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const server = await startServer();
    await new Promise((r) => setTimeout(r, 500));
    runs.push({ readyMs: Math.round(server.readyMs), rss: rssMiB(server.process.pid ?? 0) });
    await server.stop();
  }
  const sorted = runs.map((r) => r.readyMs).sort((a, b) => a - b);
  return { cold_start_to_ready_ms_median: sorted[1], rss_after_start_mib: runs.map((r) => r.rss) };
}

async function loginLatency(url: string, count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await login(url, 'admin', BENCH_PASSWORD, 'DEMO');
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { login_samples: count, login_p50_ms: percentile(times, 50), login_p99_ms: percentile(times, 99) };
}

async function authenticatedGet(url: string, token: string, seconds: number, concurrency: number) {
  const times: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const response = await fetch(`${url}/api/Account/LoginInfo`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      if (response.status !== 200) errors++;
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  times.sort((a, b) => a - b);
  return {
    get_route: 'GET /api/Account/LoginInfo',
    get_concurrency: concurrency,
    get_seconds: seconds,
    get_requests_per_second: Math.round(times.length / seconds),
    get_p50_ms: percentile(times, 50),
    get_p99_ms: percentile(times, 99),
    get_errors: errors,
  };
}

const figures: Record<string, unknown> = {
  machine: `${execFileSync('nproc').toString().trim()} cores, node ${process.version}`,
  ...(await coldStart()),
};
const server = await startServer();
try {
  Object.assign(figures, await loginLatency(server.url, 40));
  const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
  Object.assign(figures, await authenticatedGet(server.url, token, 10, 16));
} finally {
  await server.stop();
}
process.stdout.write(`${JSON.stringify({ bench: 'foundation', ...figures }, null, 2)}\n`);
