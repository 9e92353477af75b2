// Push-to-talk figures (issue 12): 200 channels of 10 terminals with 20 simultaneous talkers, plus
// one channel of 1,000 listeners with its own talker, all on real WebSockets against the built server.
// Prints floor grant time (request to ack over loopback: the server's time plus two loopback hops),
// relay latency per frame (talker's send to each listener's receive), frames lost, and server CPU per
// 1,000 frames delivered.
//   npx tsc -b packages/contract packages/media apps/server && npx tsx bench/talk.ts
// BENCH_SECONDS (20): how long the talkers talk. The terminals run in this process, beside the server,
// on a machine shared with other work: the latencies include this process's own scheduling.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import WebSocket from 'ws';
import { speechPackets } from '../packages/media/src/index.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { percentile, startServer } from './support/startServer.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** BENCH_BIG_TALKER=0 leaves the 1,000-listener channel silent (relay figures of the small channels alone). */
const BIG_TALKER = process.env.BENCH_BIG_TALKER !== '0';
const SMALL_CHANNELS = 200;
const SMALL_SIZE = 10;
const TALKERS = 20;
const BIG_SIZE = 1_000;
const TERMINALS = SMALL_CHANNELS * SMALL_SIZE + BIG_SIZE;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Channel c (0..200) holds terminals; channel 200 is the big one. CIDs are 1..201 on a fresh database. */
function seedChannels(dataDir: string): void {
  const db = new SQLite(path.join(dataDir, 'intercom.sqlite'));
  db.pragma('busy_timeout = 10000');
  const now = Date.now();
  db.transaction(() => {
    const channel = db.prepare(
      `insert into channel ("E_ID","CName","CTypeID","Note","Priority","VideoEnable","Record","CreatedAt") values (1,?,106,'',0,0,0,?)`,
    );
    const member = db.prepare(`insert into channel_member ("CID","UserID","E_ID","Priority") values (?,?,1,0)`);
    const users = db.prepare(`select "UserID" from terminal_user where "MobilePhone" = ?`);
    for (let c = 0; c <= SMALL_CHANNELS; c += 1) {
      const cid = Number(channel.run(`Bench${c}`, now).lastInsertRowid);
      const [from, size] = c < SMALL_CHANNELS ? [c * SMALL_SIZE, SMALL_SIZE] : [SMALL_CHANNELS * SMALL_SIZE, BIG_SIZE];
      for (let i = from; i < from + size; i += 1) {
        const row = users.get(terminalPhone(i)) as { UserID: number };
        member.run(cid, row.UserID);
      }
    }
  })();
  db.close();
}

class Terminal {
  private seq = 0;
  private readonly waiting = new Map<number, (m: Record<string, unknown>) => void>();
  onFrame: (frame: Buffer, at: number) => void = () => undefined;

  constructor(readonly socket: WebSocket) {
    // Text arrives as a string, binary as a Buffer (whichever ws major resolves here).
    socket.on('message', (data: Buffer | string, isBinary?: boolean) => {
      if (isBinary === true || (isBinary === undefined && typeof data !== 'string')) {
        return this.onFrame(data as Buffer, performance.now());
      }
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      const resolve = this.waiting.get(message.seq as number);
      if (resolve && (message.type === 'ack' || message.type === 'error')) {
        this.waiting.delete(message.seq as number);
        resolve(message);
      }
    });
  }

  static async open(url: string, phone: string): Promise<Terminal> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const terminal = new Terminal(socket);
    const reply = await terminal.request({ type: 'login', phone, password: SEED_PASSWORD });
    if (reply.type !== 'ack') throw new Error(`login refused: ${JSON.stringify(reply)}`);
    return terminal;
  }

  request(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.seq += 1;
    const seq = this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      this.socket.send(JSON.stringify({ ...message, seq }));
    });
  }
}

function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
}

async function main(): Promise<void> {
  const server = await startServer();
  const pid = server.process.pid as number;
  try {
    log(`seeding ${TERMINALS} terminals and ${SMALL_CHANNELS + 1} channels`);
    await seedTerminals({ dataDir: server.dataDir }, TERMINALS, 0);
    seedChannels(server.dataDir);
    const url = `${server.url.replace('http', 'ws')}/terminal`;
    const terminals: Terminal[] = [];
    for (let i = 0; i < TERMINALS; i += 50) {
      const batch = Array.from({ length: Math.min(50, TERMINALS - i) }, (_, k) =>
        Terminal.open(url, terminalPhone(i + k)),
      );
      terminals.push(...(await Promise.all(batch)));
    }
    log('joining');
    const cidOf = (i: number) =>
      i < SMALL_CHANNELS * SMALL_SIZE ? Math.floor(i / SMALL_SIZE) + 1 : SMALL_CHANNELS + 1;
    for (let i = 0; i < TERMINALS; i += 100) {
      await Promise.all(terminals.slice(i, i + 100).map((t, k) => t.request({ type: 'join', cid: cidOf(i + k) })));
    }

    // Floor grant: every small channel's first member asks for and releases the floor five times,
    // ten channels at a time (a burst of 200 at once would measure this process's queue, not the server).
    const grants: number[] = [];
    for (let round = 0; round < 5 * (SMALL_CHANNELS / 10); round += 1) {
      const first = (round % (SMALL_CHANNELS / 10)) * 10;
      await Promise.all(
        Array.from({ length: 10 }, async (_, k) => {
          const c = first + k;
          const t = terminals[c * SMALL_SIZE] as Terminal;
          const started = performance.now();
          const reply = await t.request({ type: 'floorRequest', cid: c + 1 });
          if (reply.granted === true) grants.push(performance.now() - started);
          await t.request({ type: 'floorRelease', cid: c + 1 });
        }),
      );
      await sleep(5);
    }

    // Talk: talkers in channels spread over the 200, and one in the big channel, each 50 frames/s.
    const talkerIndexes = [
      ...Array.from({ length: TALKERS }, (_, k) => k * (SMALL_CHANNELS / TALKERS) * SMALL_SIZE),
      ...(BIG_TALKER ? [SMALL_CHANNELS * SMALL_SIZE] : []),
    ];
    const sentAt = new Map<number, Float64Array>();
    const latencies: number[] = [];
    const expected = new Map<Terminal, number>();
    const received = new Map<Terminal, number>();
    const frames = SECONDS * 50;
    for (const index of talkerIndexes) {
      const cid = cidOf(index);
      sentAt.set(cid, new Float64Array(frames));
      await (terminals[index] as Terminal).request({ type: 'floorRequest', cid });
    }
    terminals.forEach((t, i) => {
      const cid = cidOf(i);
      if (!sentAt.has(cid) || talkerIndexes.includes(i)) return;
      expected.set(t, frames);
      received.set(t, 0);
      t.onFrame = (frame, at) => {
        received.set(t, (received.get(t) ?? 0) + 1);
        const seq = frame.readUInt16BE(9);
        const sent = sentAt.get(frame.readUInt32BE(1))?.[seq];
        if (sent) latencies.push(at - sent);
      };
    });
    const packets = speechPackets('unit-three');
    const cpuBefore = cpuSeconds(pid);
    log(`${talkerIndexes.length} talkers for ${SECONDS} s`);
    const start = performance.now();
    for (let seq = 0; seq < frames; seq += 1) {
      const due = start + seq * 20;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      for (const index of talkerIndexes) {
        const cid = cidOf(index);
        const packet = packets[seq % packets.length] as Buffer;
        const frame = Buffer.allocUnsafe(7 + packet.length);
        frame[0] = 1;
        frame.writeUInt32BE(cid, 1);
        frame.writeUInt16BE(seq, 5);
        packet.copy(frame, 7);
        (sentAt.get(cid) as Float64Array)[seq] = performance.now();
        (terminals[index] as Terminal).socket.send(frame);
      }
      // A heartbeat for the silent listeners now and then keeps them within the 90 s timeout.
      if (seq % 1500 === 0 && seq > 0)
        for (const t of terminals) t.socket.send(JSON.stringify({ seq: 0, type: 'heartbeat' }));
    }
    await sleep(1_000);
    const cpu = cpuSeconds(pid) - cpuBefore;
    let lost = 0;
    let delivered = 0;
    for (const [t, n] of expected) {
      const got = received.get(t) ?? 0;
      lost += Math.max(0, n - got);
      delivered += got;
    }
    const result = {
      bench: 'talk',
      terminals: TERMINALS,
      channels: `${SMALL_CHANNELS} x ${SMALL_SIZE} + 1 x ${BIG_SIZE}`,
      talkers: talkerIndexes.length,
      bigChannelTalks: BIG_TALKER,
      seconds: SECONDS,
      floorGrantMs: summary(grants),
      relayLatencyMs: summary(latencies),
      framesSent: frames * talkerIndexes.length,
      framesExpected: frames * expected.size,
      framesDelivered: delivered,
      framesLost: lost,
      serverCpuSeconds: Math.round(cpu * 100) / 100,
      serverCpuMsPer1000Delivered: Math.round(((cpu * 1000 * 1000) / Math.max(1, delivered)) * 100) / 100,
      twoInstancesOverRedis: 'not measured: the Redis floor lease and cross-instance audio are not built yet',
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    for (const t of terminals) t.socket.terminate();
  } finally {
    await server.stop();
  }
}

await main();
