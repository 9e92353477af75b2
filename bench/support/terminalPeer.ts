import fs from 'node:fs';
import { TerminalSocket } from '@intercom/terminal-client';
import WebSocket from 'ws';

/**
 * A `/terminal` client for the benchmarks (a TerminalSocket without heartbeats): requests resolved
 * by their reply (`ack` or `error`), pushes kept in `pushes`, binary frames handed to `onFrame` with
 * the epoch time they arrived.
 */
export class TerminalPeer {
  private readonly client: TerminalSocket;
  /** Text messages other than replies, in arrival order (floorRevoked tells a talker it lost the floor). */
  readonly pushes: Record<string, unknown>[] = [];
  onFrame: (frame: Buffer, at: number) => void = () => undefined;
  /** The login's ack (a terminal's holds its `resume` token). */
  loginAck: Record<string, unknown> | undefined;

  constructor(readonly socket: WebSocket) {
    this.client = new TerminalSocket({ connect: () => socket, heartbeatMs: false, requestTimeoutMs: 60_000 });
    // ws hands binary frames over as Buffers already: no new object per frame on the relay path.
    this.client.on('frame', (bytes) =>
      this.onFrame(
        Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        performance.timeOrigin + performance.now(),
      ),
    );
    this.client.on('push', (message) => this.pushes.push(message));
  }

  /** Connects and logs in (`{phone, password}` for a terminal, `{authCode}` for a dispatcher seat). */
  static async open(url: string, login: Record<string, unknown>): Promise<TerminalPeer> {
    const peer = new TerminalPeer(new WebSocket(url));
    await peer.client.opened();
    const reply = await peer.request({ type: 'login', ...login });
    if (reply.type !== 'ack') throw new Error(`login refused: ${JSON.stringify(reply)}`);
    peer.loginAck = reply;
    return peer;
  }

  request(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.client.exchange(message);
  }

  /** Closes the socket for good. */
  close(): void {
    this.client.close();
  }

  /** A heartbeat sent without waiting for its ack: a silent peer's keep-alive from inside a timed loop. */
  heartbeat(): void {
    this.client.send({ type: 'heartbeat' });
  }

  /** Sends an audio or video frame; false when the socket is not open. */
  sendFrame(frame: Uint8Array): boolean {
    return this.client.sendFrame(frame);
  }
}

/** CPU seconds a process has used (utime + stime from /proc, in Linux's 1/100 s clock ticks). */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuParts(pid);
  return user + system;
}

/** A process's CPU seconds so far, in its own code (user) and in the kernel on its behalf (system). */
export function cpuParts(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}
