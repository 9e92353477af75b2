import { GPS_BLOCK_TYPE } from '@intercom/contract';
import { MessageType, NullLogger, type HubMessage } from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import WebSocket from 'ws';
import { wsText } from './wsText.js';

const RS = '\u001e';

/** Latencies in 1 ms buckets up to 60 s: percentiles without keeping every sample. */
export class Histogram {
  private readonly buckets = new Uint32Array(60_001);
  count = 0;

  add(ms: number): void {
    const i = Math.max(0, Math.min(60_000, Math.round(ms)));
    this.buckets[i] = (this.buckets[i] as number) + 1;
    this.count += 1;
  }

  merge(other: Histogram): void {
    other.buckets.forEach((n, i) => (this.buckets[i] = (this.buckets[i] as number) + n));
    this.count += other.count;
  }

  percentile(p: number): number {
    const target = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i] as number;
      if (seen >= target && seen > 0) return i;
    }
    return 0;
  }
}

interface GpsPush {
  type: string;
  data: { time: number }[];
}

/** Occurrences of `needle` in `text`. */
export function countOf(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n += 1;
  return n;
}

/**
 * What a console client measures: GPS records received and the age of each (now minus fix time).
 * A counting receiver only counts records in the raw text (no JSON parsing), so many clients in the
 * bench process cost it little CPU and the figures stay about the server.
 */
export class Receiver {
  readonly latency = new Histogram();
  records = 0;
  pushes = 0;
  /** Characters of the messages taken (for bytes per record: ASCII here). */
  chars = 0;
  measuring = false;

  constructor(readonly parse = true) {}

  onRecords(text: string): void {
    this.chars += text.length;
    if (!this.parse) {
      this.records += countOf(text, '"U_ID":');
      this.pushes += countOf(text, '"type":"GPS"');
      return;
    }
    const now = Date.now();
    for (const part of text.split(RS)) {
      if (!part) continue;
      const message = JSON.parse(part) as { type: number; target?: string; arguments?: GpsPush[] };
      if (message.type !== 1 || message.target !== 'pushMsg') continue;
      const push = message.arguments?.[0];
      if (push?.type !== 'GPS') continue;
      this.pushes += 1;
      this.records += push.data.length;
      if (this.measuring) for (const record of push.data) this.latency.add(now - record.time);
    }
  }
}

/** The hub's MessagePack protocol, as the official client speaks it. */
const messagePack = new MessagePackHubProtocol();

/**
 * What a console client on SignalR's MessagePack protocol measures: the GPS records of the binary
 * position blocks it receives (their count, read from each block's header: no fix is decoded) and
 * the bytes they took.
 */
export class BinaryReceiver extends Receiver {
  constructor() {
    super(false);
  }

  /** The messages of one binary frame of `bytes` bytes. */
  onMessages(messages: HubMessage[], bytes: number): void {
    this.chars += bytes;
    for (const message of messages) {
      if (message.type !== MessageType.Invocation || message.target !== 'pushMsg') continue;
      const push = message.arguments[0] as { type?: string; data?: { block?: Uint8Array } };
      const block = push?.type === GPS_BLOCK_TYPE ? push.data?.block : undefined;
      if (!block) continue;
      this.pushes += 1;
      // The block's header: a version byte, a flags byte, then the fixes' count (uint32, little-endian).
      this.records += new DataView(block.buffer, block.byteOffset, block.byteLength).getUint32(2, true);
    }
  }
}

/**
 * A hub client on WebSockets speaking MessagePack, subscribed to FuncGPS: each GPS push comes as one
 * binary position block (docs/realtime.md). Resolves once the subscription is live.
 */
export async function messagePackClient(url: string, token: string, receiver: BinaryReceiver): Promise<() => void> {
  const socket = await openHubSocket(url, token);
  let subscribed: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  let handshaken = false;
  socket.on('message', (data: Buffer) => {
    let bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (!handshaken) {
      // The handshake's answer is JSON text, alone or leading the first binary frame.
      const end = bytes.indexOf(0x1e);
      if (end < 0) return;
      handshaken = true;
      bytes = bytes.subarray(end + 1);
      if (bytes.byteLength === 0) return;
    }
    const messages = messagePack.parseMessages(bytes.slice().buffer, NullLogger.instance);
    if (messages.some((m) => m.type === MessageType.Completion && m.invocationId === '1')) subscribed();
    receiver.onMessages(messages, bytes.byteLength);
  });
  socket.send(`{"protocol":"messagepack","version":1}${RS}`);
  const subscribe = messagePack.writeMessage({
    type: MessageType.Invocation,
    target: 'FuncGPS',
    arguments: [],
    invocationId: '1',
    headers: {},
  });
  socket.send(new Uint8Array(subscribe));
  await ready;
  const ping = new Uint8Array(messagePack.writeMessage({ type: MessageType.Ping }));
  const keepAlive = setInterval(() => socket.send(ping), 15_000);
  return () => {
    clearInterval(keepAlive);
    socket.terminate();
  };
}

/** A WebSocket to the hub, negotiated and open (the handshake is the caller's). */
async function openHubSocket(url: string, token: string): Promise<WebSocket> {
  const id = await negotiate(url, token);
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/FuncService?id=${id}&access_token=${token}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

async function negotiate(url: string, token: string): Promise<string> {
  const response = await fetch(`${url}/FuncService/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`negotiate answered ${response.status}`);
  return ((await response.json()) as { connectionToken: string }).connectionToken;
}

const HANDSHAKE = `{"protocol":"json","version":1}${RS}`;
const SUBSCRIBE = `{"type":1,"target":"FuncGPS","arguments":[],"invocationId":"1"}${RS}`;
const PING = `{"type":6}${RS}`;

/** A hub client on WebSockets subscribed to FuncGPS; resolves once the subscription is live. */
export async function webSocketClient(url: string, token: string, receiver: Receiver): Promise<() => void> {
  const socket = await openHubSocket(url, token);
  let subscribed: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  socket.on('message', (data) => {
    const text = wsText(data);
    if (text.includes('"invocationId":"1"')) subscribed();
    receiver.onRecords(text);
  });
  socket.send(HANDSHAKE);
  socket.send(SUBSCRIBE);
  await ready;
  // A ping every 15 s, as the official client sends: the hub drops a client silent for 30 s.
  const keepAlive = setInterval(() => socket.send(PING), 15_000);
  return () => {
    clearInterval(keepAlive);
    socket.terminate();
  };
}

/** A hub client on long polling subscribed to FuncGPS; polls until stopped. */
export async function longPollingClient(url: string, token: string, receiver: Receiver): Promise<() => void> {
  const id = await negotiate(url, token);
  const endpoint = `${url}/FuncService?id=${id}`;
  const headers = { authorization: `Bearer ${token}` };
  let running = true;
  await (await fetch(endpoint, { headers })).text();
  await fetch(endpoint, { method: 'POST', headers, body: HANDSHAKE });
  await (await fetch(endpoint, { headers })).text();
  await fetch(endpoint, { method: 'POST', headers, body: SUBSCRIBE });
  void (async () => {
    while (running) {
      try {
        const response = await fetch(endpoint, { headers });
        if (response.status === 204 || response.status === 404) break;
        receiver.onRecords(await response.text());
      } catch {
        break;
      }
    }
  })();
  return () => {
    running = false;
    void fetch(endpoint, { method: 'DELETE', headers }).catch(() => undefined);
  };
}

/**
 * A raw socket.io (engine.io 4) WebSocket client that counts GPS records in `pushMsg` events the
 * same way as a counting hub Receiver, so both servers are measured with equally cheap clients.
 */
export async function socketIoCounter(url: string, receiver: Receiver): Promise<() => void> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`);
  let connected: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  socket.on('message', (data) => {
    const text = wsText(data);
    if (text.startsWith('0')) socket.send('40');
    else if (text.startsWith('40')) connected();
    else if (text === '2') socket.send('3');
    else if (text.startsWith('42')) receiver.onRecords(text);
  });
  await ready;
  return () => socket.terminate();
}
