import fs from 'node:fs';
import WebSocket from 'ws';

/**
 * A `/terminal` client for the benchmarks: requests numbered by `seq` and resolved by their reply
 * (`ack` or `error`), other text messages kept in `pushes`, binary frames handed to `onFrame` with the
 * epoch time they arrived.
 */
export class TerminalPeer {
  private seq = 0;
  private readonly waiting = new Map<number, (m: Record<string, unknown>) => void>();
  /** Text messages other than replies, in arrival order (floorRevoked tells a talker it lost the floor). */
  readonly pushes: Record<string, unknown>[] = [];
  onFrame: (frame: Buffer, at: number) => void = () => undefined;

  constructor(readonly socket: WebSocket) {
    // Text arrives as a string, binary as a Buffer (whichever ws major resolves here).
    socket.on('message', (data: Buffer | string, isBinary?: boolean) => {
      if (isBinary === true || (isBinary === undefined && typeof data !== 'string')) {
        return this.onFrame(data as Buffer, performance.timeOrigin + performance.now());
      }
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      const resolve = this.waiting.get(message.seq as number);
      if (resolve && (message.type === 'ack' || message.type === 'error')) {
        this.waiting.delete(message.seq as number);
        resolve(message);
      } else this.pushes.push(message);
    });
  }

  /** Connects and logs in (`{phone, password}` for a terminal, `{authCode}` for a dispatcher seat). */
  static async open(url: string, login: Record<string, unknown>): Promise<TerminalPeer> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const peer = new TerminalPeer(socket);
    const reply = await peer.request({ type: 'login', ...login });
    if (reply.type !== 'ack') throw new Error(`login refused: ${JSON.stringify(reply)}`);
    return peer;
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

/** CPU seconds a process has used (utime + stime from /proc, in Linux's 1/100 s clock ticks). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
