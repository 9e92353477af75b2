// The server's heap per `/terminal` connection (issue 52, rssMb of bench/fleet.ts): the built server
// (SQLite), `TERMINAL_HEAP_CONNECTIONS` terminals (2,000) that log in, join one channel and report one
// position; the live heap after a forced garbage collection (the server's inspector) before and after,
// divided by the connections. Prints one JSON object.
//   node scripts/build.mjs && npx tsx bench/terminalHeap.ts
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { TerminalSocket } from '../packages/terminal-client/src/index.js';
import { benchChannelMembers, createBenchChannel } from './support/benchChannel.js';
import { inspectProcess } from './support/inspectorProfile.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { rssMiB, startServer } from './support/startServer.js';

const CONNECTIONS = Number(process.env.TERMINAL_HEAP_CONNECTIONS ?? 2000);
const AT_ONCE = 50;

const server = await startServer({ LOG_LEVEL: 'error' });
const pid = server.process.pid as number;
const clients: TerminalSocket[] = [];
try {
  await seedTerminals({ dataDir: server.dataDir }, CONNECTIONS, 1);
  const phones = Array.from({ length: CONNECTIONS }, (_, i) => terminalPhone(i));
  const cid = createBenchChannel(server.dataDir, 'Heap', benchChannelMembers(server.dataDir, phones));
  const inspector = await inspectProcess(pid);
  /** MiB of live heap: two full collections, then the heap's used size. */
  const liveHeapMiB = async () => {
    await inspector.send('HeapProfiler.collectGarbage');
    await inspector.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await inspector.send('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize / 2 ** 20;
  };
  const before = { heap: await liveHeapMiB(), rss: rssMiB(pid) };
  const url = `${server.url.replace(/^http/, 'ws')}/terminal`;
  for (let first = 0; first < CONNECTIONS; first += AT_ONCE) {
    const batch = phones.slice(first, first + AT_ONCE).map(async (phone) => {
      const client = new TerminalSocket({ connect: () => new WebSocket(url), requestTimeoutMs: false });
      clients.push(client);
      await new Promise<void>((resolve) => client.on('open', () => resolve()));
      await client.login({ phone, password: SEED_PASSWORD });
      await client.request({ type: 'join', cid });
      await client.request({
        type: 'position',
        lat: 22.5,
        lon: 114,
        time: Date.now(),
        speed: 1,
        course: 1,
        accuracy: 5,
      });
    });
    await Promise.all(batch);
  }
  await sleep(3000);
  const after = { heap: await liveHeapMiB(), rss: rssMiB(pid) };
  inspector.close();
  const round = (value: number) => Math.round(value * 100) / 100;
  console.log(
    JSON.stringify({
      connections: CONNECTIONS,
      heapKiBPerConnection: round(((after.heap - before.heap) * 1024) / CONNECTIONS),
      liveHeapMiB: { before: round(before.heap), after: round(after.heap) },
      rssMiB: { before: before.rss, after: after.rss },
    }),
  );
} finally {
  for (const client of clients) client.close();
  server.process.kill('SIGTERM');
}
