import type { AddressInfo } from 'node:net';
import { CALL_ID_BASE } from '@intercom/contract';
import WebSocket, { type WebSocketServer } from 'ws';
import { decodeAudioUp, type AudioUp } from '../src/index.js';

/** ws 7 (which the workspace root resolves here) has only `WebSocket.Server`; ws 8 has it as well. */
const Server = (WebSocket as unknown as { Server: typeof WebSocketServer }).Server;

export type PeerMessage = Record<string, unknown> & { type: string };

/** The seat the peer grants. */
export const PEER_SEAT = { dispatchNo: 'D3', A_ID: 3, E_ID: 1, name: 'Admin', priority: 7 } as const;
/** A channel outside the seat's scope: `join` is refused with `not_member`. */
export const FOREIGN_CID = 999;
/** A channel whose floor is taken: `floorRequest` is refused with `busy`. */
export const BUSY_CID = 77;
/** The cid the peer gives the first private call. */
export const FIRST_CALL = CALL_ID_BASE + 1;

/**
 * A scripted `/terminal` on 127.0.0.1 for a dispatcher seat: it acks what the server acks (login
 * with PEER_SEAT, join with the seat's priority, call with a call cid, logout followed by the close),
 * refuses a join of FOREIGN_CID and the floor of BUSY_CID, and records every message (without its seq) and audio frame.
 * Pushes and closes are the test's.
 */
export class SeatPeer {
  readonly received: PeerMessage[] = [];
  readonly frames: AudioUp[] = [];
  private readonly sockets: WebSocket[] = [];
  private calls = 0;

  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket) => {
      this.sockets.push(socket);
      // ws 8 passes (Buffer, isBinary); ws 7 a string for a text message.
      socket.on('message', (data: Buffer | string, isBinary?: boolean) => {
        if (isBinary === true || (isBinary === undefined && typeof data !== 'string')) {
          const up = decodeAudioUp(new Uint8Array(data as Buffer));
          if (up) this.frames.push({ ...up, opus: new Uint8Array(up.opus) });
          return;
        }
        this.answer(socket, JSON.parse(String(data)) as PeerMessage & { seq: number });
      });
    });
  }

  static async start(): Promise<SeatPeer> {
    const server = new Server({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    return new SeatPeer(server);
  }

  /** `http://127.0.0.1:port`: what a console names as the platform (the agent's Proxy). */
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/terminal`;
  }

  /** Messages the seat sent, heartbeats aside. */
  messages(): PeerMessage[] {
    return this.received.filter((message) => message.type !== 'heartbeat');
  }

  push(message: PeerMessage): void {
    this.latest().send(JSON.stringify(message));
  }

  /** Closes the seat's socket with `code`; 1006 drops it without a close frame. */
  close(code: number): void {
    if (code === 1006) this.latest().terminate();
    else this.latest().close(code);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private latest(): WebSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no seat connected');
    return socket;
  }

  private answer(socket: WebSocket, { seq, ...message }: PeerMessage & { seq: number }): void {
    this.received.push(message);
    const ack = (fields: Record<string, unknown> = {}) => socket.send(JSON.stringify({ type: 'ack', seq, ...fields }));
    const refuse = (code: string) => socket.send(JSON.stringify({ type: 'error', seq, code, message: code }));
    switch (message.type) {
      case 'login':
        return ack({ seat: PEER_SEAT, serverTime: Date.now() });
      case 'join':
        return message.cid === FOREIGN_CID
          ? refuse('not_member')
          : ack({ cid: message.cid, priority: PEER_SEAT.priority });
      case 'call':
        this.calls += 1;
        return ack({ cid: CALL_ID_BASE + this.calls });
      case 'floorRequest':
        return message.cid === BUSY_CID ? refuse('busy') : ack();
      case 'videoList':
        return ack({ videos: [] });
      case 'logout':
        ack();
        socket.close(1000);
        return;
      default:
        return ack();
    }
  }
}
