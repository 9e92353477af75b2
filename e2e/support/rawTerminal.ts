import { inject } from 'vitest';
import WebSocket from 'ws';
import { TERMINAL_PASSWORD } from './terminal.js';

/**
 * A terminal on `/terminal` that also takes binary frames (the talk tests): replies by `seq`,
 * pushed messages in `pushes`, audio frames (kind 1) in `audio` with the time each arrived.
 */
export class RawTerminal {
  private seq = 0;
  private readonly replies = new Map<number, (reply: Record<string, unknown>) => void>();
  readonly pushes: Array<Record<string, unknown> & { at: number }> = [];
  readonly audio: Array<{ frame: Buffer; at: number }> = [];

  private constructor(readonly socket: WebSocket) {
    // ws 8 passes (Buffer, isBinary); ws 7 (which the workspace may resolve here) a string for text.
    socket.on('message', (data: Buffer | string, binary?: boolean) => {
      if (typeof data !== 'string' && binary !== false) {
        this.audio.push({ frame: data, at: Date.now() });
        return;
      }
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      if (typeof message.seq === 'number' && (message.type === 'ack' || message.type === 'error')) {
        this.replies.get(message.seq)?.(message);
      } else this.pushes.push({ ...message, at: Date.now() });
    });
  }

  static async login(phone: string): Promise<RawTerminal> {
    const socket = new WebSocket(new URL('/terminal', inject('baseUrl').replace(/^http/, 'ws')));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const terminal = new RawTerminal(socket);
    const ack = await terminal.send({ type: 'login', phone, password: TERMINAL_PASSWORD, device: 'e2e talk' });
    if (ack.type !== 'ack') throw new Error(`login of ${phone}: ${String(ack.message)}`);
    return terminal;
  }

  send(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.replies.set(seq, resolve);
      this.socket.send(JSON.stringify({ seq, ...message }));
    });
  }

  /** Sends Opus packets as kind-1 frames, one every 20 ms (a talking terminal). */
  async speak(cid: number, packets: readonly Buffer[]): Promise<void> {
    const started = Date.now();
    for (const [index, packet] of packets.entries()) {
      const frame = Buffer.alloc(7 + packet.length);
      frame.writeUInt8(1, 0);
      frame.writeUInt32BE(cid, 1);
      frame.writeUInt16BE(index & 0xffff, 5);
      packet.copy(frame, 7);
      this.socket.send(frame);
      const wait = started + (index + 1) * 20 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The first push matching `test` that arrived at or after `since`. */
  async push(test: (message: Record<string, unknown>) => boolean, since = 0, timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.pushes.find((message) => message.at >= since && test(message));
      if (found) return found;
      if (Date.now() > until) throw new Error(`no such push within ${timeoutMs} ms: ${JSON.stringify(this.pushes)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.socket.close();
  }
}
