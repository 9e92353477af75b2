// Emergency call latency (issue 32): a terminal's `sos` to the dispatcher seat's `callStart` with
// `emergency: true`, over real WebSockets against the built server (SQLite). Each round a terminal
// raises SOS, the seat is offered the call, and the terminal hangs up before the next round, so
// every SOS opens a call of its own; the alarm row is written first, as in production, so the
// figure holds the insert, the bus, the scope look-up and the push. Prints p50/p95/p99 in ms for the
// seat's callStart and the terminal's own, with the CPU model and the load average.
//   node scripts/build.mjs && npx tsx bench/sosCall.ts
// SOS_BENCH_COUNT (300): rounds; SOS_BENCH_TERMINALS (20): terminals taking turns.
import os from 'node:os';
import { login } from './support/login.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { BENCH_PASSWORD, percentile, startServer } from './support/startServer.js';
import { TerminalPeer } from './support/terminalPeer.js';

const COUNT = Number(process.env.SOS_BENCH_COUNT ?? 300);
const TERMINALS = Number(process.env.SOS_BENCH_TERMINALS ?? 20);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const now = () => performance.now();

/** Resolves with the arrival time of the first push of `peer` (from index `from` on) that matches. */
async function pushed(peer: TerminalPeer, from: number, test: (m: Record<string, unknown>) => boolean) {
  const until = now() + 10_000;
  for (;;) {
    const found = peer.pushes.slice(from).find(test);
    if (found) return found;
    if (now() > until) throw new Error(`no push: ${JSON.stringify(peer.pushes.slice(from))}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const server = await startServer();
try {
  await seedTerminals({ dataDir: server.dataDir }, TERMINALS, 0);
  const terminalUrl = `${server.url.replace('http', 'ws')}/terminal`;
  const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
  const code = (await (
    await fetch(`${server.url}/api/Talk/AuthCode`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
  ).json()) as { BaseData: { authCode: string } };
  const seat = await TerminalPeer.open(terminalUrl, { authCode: code.BaseData.authCode });
  const terminals = await Promise.all(
    Array.from({ length: TERMINALS }, (_, i) =>
      TerminalPeer.open(terminalUrl, { phone: terminalPhone(i), password: SEED_PASSWORD, device: 'bench' }),
    ),
  );
  // The seat's arrival times, stamped as each push comes in (the poll above would add its own delay).
  const arrivals = new Map<number, number>();
  seat.socket.on('message', (data: Buffer, binary: boolean) => {
    if (binary) return;
    const message = JSON.parse(data.toString()) as { type?: string; cid?: number; emergency?: boolean };
    if (message.type === 'callStart' && message.emergency) arrivals.set(Number(message.cid), now());
  });
  const toSeat: number[] = [];
  const toTerminal: number[] = [];
  const load = os.loadavg();
  for (let i = 0; i < COUNT; i += 1) {
    const terminal = terminals[i % TERMINALS] as TerminalPeer;
    const from = terminal.pushes.length;
    const sent = now();
    const ack = terminal.request({ type: 'sos', text: `bench ${i}` });
    const start = await pushed(terminal, from, (m) => m.type === 'callStart' && m.emergency === true);
    toTerminal.push(now() - sent);
    const cid = Number(start.cid);
    await pushed(seat, 0, (m) => m.type === 'callStart' && m.cid === cid);
    toSeat.push((arrivals.get(cid) ?? now()) - sent);
    await ack;
    const hangup = await terminal.request({ type: 'hangup', cid });
    if (hangup.type !== 'ack') throw new Error(`hangup refused: ${JSON.stringify(hangup)}`);
    await pushed(seat, 0, (m) => m.type === 'callEnd' && m.cid === cid);
    seat.pushes.length = 0;
  }
  const figures = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? 0),
    };
  };
  const result = {
    bench: 'sosCall',
    sos: COUNT,
    sosToSeatCallStartMs: figures(toSeat),
    sosToTerminalCallStartMs: figures(toTerminal),
    goalP99Ms: 200,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    loadAverage: {
      atStart: load.map((n) => Math.round(n * 100) / 100),
      atEnd: os.loadavg().map((n) => Math.round(n * 100) / 100),
    },
  };
  console.log(JSON.stringify(result, null, 2));
  log(`seat callStart p99 ${result.sosToSeatCallStartMs.p99} ms over ${COUNT} SOS`);
  for (const peer of [seat, ...terminals]) peer.socket.close();
} finally {
  await server.stop();
}
