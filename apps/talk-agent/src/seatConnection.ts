import { EventEmitter } from 'node:events';
import { TERMINAL_PATH, TalkAgentErrors, type TalkSeat } from '@intercom/contract';
import WebSocket from 'ws';
import { AgentError } from './agentError.js';

export type ServerMessage = { type: string; seq?: number | null; code?: string; message?: string } & Record<
  string,
  unknown
>;

/** What the seat socket may take to open and to answer one request. */
const CONNECT_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 5_000;
/** The server drops a socket silent for 3 heartbeats (90 s); one every 30 s keeps the seat. */
const HEARTBEAT_MS = 30_000;

/** `http(s)://host:port` of the platform -> its `/terminal` WebSocket URL. */
export function terminalUrlOf(proxy: string): string {
  const url = new URL(proxy);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = TERMINAL_PATH;
  url.search = '';
  return url.toString();
}

interface Pending {
  resolve(message: ServerMessage): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The dispatcher seat on the platform's `/terminal` (docs/terminal-protocol.md): numbered requests
 * answered by ack/error, unsolicited messages as 'message', binary frames as 'frame', and 'close'.
 */
export class SeatConnection extends EventEmitter<{
  message: [ServerMessage];
  frame: [Buffer];
  close: [number, string];
}> {
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly heartbeat: NodeJS.Timeout;
  private closingReason = '';
  seat: TalkSeat | undefined;

  private constructor(private readonly socket: WebSocket) {
    super();
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.emit('frame', data as Buffer);
      else this.receive(String(data));
    });
    socket.on('close', (code) => {
      clearInterval(this.heartbeat);
      for (const p of this.pending.values()) {
        clearTimeout(p.timer);
        p.reject(new AgentError(TalkAgentErrors.serverUnreachable, 'the server closed the connection'));
      }
      this.pending.clear();
      this.emit('close', code, this.closingReason);
    });
    socket.on('error', () => {});
    this.heartbeat = setInterval(() => void this.request({ type: 'heartbeat' }).catch(() => {}), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Opens the socket; AgentError server_unreachable when the platform does not answer. */
  static connect(proxy: string): Promise<SeatConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(terminalUrlOf(proxy), { handshakeTimeout: CONNECT_TIMEOUT_MS });
      const fail = (error: Error) => {
        socket.terminate();
        reject(new AgentError(TalkAgentErrors.serverUnreachable, `cannot reach ${proxy}: ${error.message}`));
      };
      socket.once('error', fail);
      socket.once('open', () => {
        socket.off('error', fail);
        resolve(new SeatConnection(socket));
      });
    });
  }

  /** Connects and logs in as the seat of `authCode`; server errors (bad_auth_code) are AgentErrors. */
  static async login(proxy: string, authCode: string): Promise<SeatConnection> {
    const connection = await SeatConnection.connect(proxy);
    try {
      const ack = await connection.request({ type: 'login', authCode });
      connection.seat = ack.seat as TalkSeat;
      return connection;
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  private receive(text: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(text) as ServerMessage;
    } catch {
      return;
    }
    if ((message.type === 'ack' || message.type === 'error') && typeof message.seq === 'number') {
      const waiting = this.pending.get(message.seq);
      if (waiting) {
        this.pending.delete(message.seq);
        clearTimeout(waiting.timer);
        if (message.type === 'ack') waiting.resolve(message);
        else waiting.reject(new AgentError(message.code ?? 'internal', message.message ?? message.code ?? 'error'));
        return;
      }
    }
    if (message.type === 'closing') this.closingReason = String(message.reason ?? '');
    this.emit('message', message);
  }

  /** Sends `{seq, ...message}`; resolves with the ack, rejects with the error's code. */
  request(message: Record<string, unknown>): Promise<ServerMessage> {
    if (this.socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new AgentError(TalkAgentErrors.serverUnreachable, 'not connected to the server'));
    }
    this.seq += 1;
    const seq = this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        reject(new AgentError(TalkAgentErrors.serverUnreachable, `no answer to ${String(message.type)}`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(seq, { resolve, reject, timer });
      this.socket.send(JSON.stringify({ seq, ...message }));
    });
  }

  sendFrame(frame: Buffer): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(frame, { binary: true });
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.socket.close();
  }
}
