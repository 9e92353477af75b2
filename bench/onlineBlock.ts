// A snapshot's online users for a MessagePack hub client (issue 52, goal 6), side by side: the plain
// `OnlineUser` list (MessagePack maps, what the server made of its JSON text) against the packed
// `OnlineBlock` (packages/contract/src/onlineBlock.ts). ONLINE_BENCH_USERS (50,000) users, the median
// of ONLINE_BENCH_ROUNDS (7) rounds each: the bytes, the server's work to build each (JSON text to
// MessagePack, as hub/hubWire.ts does; the columns packed), and the client's to read each in
// Chromium, where the console's hub worker reads it (the SignalR MessagePack framing and the
// console's own check of each user, or the unpacking). Prints one JSON object.
//   npx tsx bench/onlineBlock.ts
import fs from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { decode, encode } from '@msgpack/msgpack';
import { packOnlineUsers, unpackOnlineUsers, type OnlineUser } from '@intercom/contract';
import { nativeDeflate } from '../apps/server/src/hub/nativeDeflate.js';
import { launchBrowser } from '../e2e/support/chromium.js';

const USERS = Number(process.env.ONLINE_BENCH_USERS ?? 50_000);
const ROUNDS = Number(process.env.ONLINE_BENCH_ROUNDS ?? 7);
const require = createRequire(import.meta.url);
/** The folder of an installed package (from its main entry, which every package exports). */
function packageDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (value: number) => Math.round(value * 10) / 10;
function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

const users: OnlineUser[] = Array.from({ length: USERS }, (_, i) => ({
  U_ID: 100_000 + i,
  E_ID: 3,
  Phone: `136${String(i).padStart(8, '0')}`,
  UserName: i % 3 === 0 ? `巡逻 ${i}` : `Bench${i}`,
  online: true,
  time: 1_796_601_600_000 + i,
}));
const text = JSON.stringify({ type: 'OnlineUser', data: users });
const plain = encode(JSON.parse(text));
// As the server packs it: Node's zlib (fflateDeflate, the contract's default, for comparison).
const packed = packOnlineUsers(users, USERS, nativeDeflate);
const packedMessage = encode({ type: 'OnlineBlock', data: packed });
if (JSON.stringify(unpackOnlineUsers(packed).users) !== JSON.stringify(users)) throw new Error('the block differs');

const server = {
  plainMs: round(median(Array.from({ length: ROUNDS }, () => timed(() => encode(JSON.parse(text)))))),
  packedMs: round(
    median(
      Array.from({ length: ROUNDS }, () => timed(() => encode({ data: packOnlineUsers(users, USERS, nativeDeflate) }))),
    ),
  ),
  packedByFflateMs: round(
    median(Array.from({ length: ROUNDS }, () => timed(() => encode({ data: packOnlineUsers(users, USERS) })))),
  ),
  packedByFflateBytes: encode({ type: 'OnlineBlock', data: packOnlineUsers(users, USERS) }).length,
};

/** The page's part: reads each message as the hub worker does (the SignalR framing left out: one decode). */
const READ_IN_PAGE = `(() => {
  const unpack = window.MessagePack.decode;
  const inflateSync = window.fflate.inflateSync;
  const readPlain = () => {
    const { data } = unpack(window.plainMessage);
    // The console's check of each user (HubController isOnlineUser).
    return data.every((u) => typeof u.Phone === 'string' && typeof u.UserName === 'string');
  };
  const readPacked = () => {
    const { data } = unpack(window.packedMessage);
    const c = unpack(inflateSync(data.packed));
    const users = [];
    for (let i = 0; i < c.U_ID.length; i++) {
      users.push({ U_ID: c.U_ID[i], E_ID: c.E_ID[i], Phone: c.Phone[i], UserName: c.UserName[i], online: true, time: c.time[i] });
    }
    return users.length;
  };
  const time = (run) => { const started = performance.now(); run(); return performance.now() - started; };
  const series = (run) => {
    const first = time(run);
    const rest = Array.from({ length: ROUNDS }, () => time(run)).sort((a, b) => a - b);
    return { firstMs: Math.round(first * 10) / 10, medianMs: Math.round(rest[Math.floor(ROUNDS / 2)] * 10) / 10 };
  };
  // Packed first: the plain list's strings would warm the decoder for it.
  const packed = series(readPacked);
  return { plain: series(readPlain), packed };
})()`;

/** In the page: the median ms of reading each message as the hub worker does, first read apart (a cold one). */
async function inChromium() {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    // The UMD builds of the same libraries (their packages do not export the paths: found beside them).
    await page.addScriptTag({ path: path.join(packageDir('@msgpack/msgpack'), 'dist.umd/msgpack.min.js') });
    await page.addScriptTag({ path: path.join(packageDir('fflate'), 'umd/index.js') });
    await page.evaluate(
      ({ plainBytes, packedBytes }) => {
        const w = window as unknown as Record<string, Uint8Array>;
        w.plainMessage = new Uint8Array(plainBytes);
        w.packedMessage = new Uint8Array(packedBytes);
      },
      { plainBytes: [...plain], packedBytes: [...packedMessage] },
    );
    // A string: tsx would name the functions inside through a helper the page lacks.
    return await page.evaluate<Record<string, unknown>>(READ_IN_PAGE.replaceAll('ROUNDS', String(ROUNDS)));
  } finally {
    await browser.close();
  }
}

const client = await inChromium();
// The packed message must hold the same users as the plain one.
const plainUsers = (decode(plain) as { data: OnlineUser[] }).data;
if (plainUsers.length !== USERS) throw new Error('the plain list differs');

process.stdout.write(
  `${JSON.stringify(
    {
      cpu: cpus()[0]?.model,
      cpus: cpus().length,
      loadAverage: loadavg().map((v) => round(v)),
      users: USERS,
      bytes: { plain: plain.length, packed: packedMessage.length },
      serverMs: server,
      chromiumReadMs: client,
    },
    null,
    2,
  )}\n`,
);
