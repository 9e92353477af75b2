import {
  TERMINAL_PATH,
  TerminalLimits,
  decodeVideoDownFrame,
  type AuthCode,
  type VideoCodecName,
} from '@intercom/contract';
import { apiRequest } from '../../shared/api/apiClient';
import { VideoSourceError, type EncodedVideo, type VideoFrameSource } from './videoFrameSource';

type Reply = { type: 'ack' | 'error'; seq: number; code?: string } & Record<string, unknown>;

/** Opens the seat socket (tests hand in their own). */
export type SocketFactory = (url: string) => WebSocket;

function terminalUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${TERMINAL_PATH}`;
}

/**
 * A VideoFrameSource over this tab's own dispatcher seat: `POST /api/Talk/AuthCode`, then
 * `{type:"login", authCode}` on `/terminal`, then videoApply/videoFree; the binary kind-2 frames
 * go to the subscribers of their U_ID. The socket opens with the first apply and closes when
 * nothing is watched; a lost socket ends every stream (onLost), and the next apply opens a new one.
 */
export class SeatVideoSource implements VideoFrameSource {
  private socket: WebSocket | null = null;
  private ready: Promise<WebSocket> | null = null;
  private seq = 0;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private readonly subscribers = new Map<number, Set<(frame: EncodedVideo) => void>>();
  private readonly lostListeners = new Set<() => void>();
  private readonly watching = new Set<number>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly openSocket: SocketFactory = (url) => new WebSocket(url),
    private readonly url: () => string = terminalUrl,
  ) {}

  async applyVideo(uid: number): Promise<{ codec: VideoCodecName }> {
    const reply = await this.request({ type: 'videoApply', uid });
    this.watching.add(uid);
    return { codec: reply.codec as VideoCodecName };
  }

  async freeVideo(uid: number): Promise<void> {
    this.watching.delete(uid);
    if (!this.socket) return;
    await this.request({ type: 'videoFree', uid }).catch(() => undefined);
    if (this.watching.size === 0) this.close();
  }

  subscribe(uid: number, onFrame: (frame: EncodedVideo) => void): () => void {
    let set = this.subscribers.get(uid);
    if (!set) {
      set = new Set();
      this.subscribers.set(uid, set);
    }
    set.add(onFrame);
    return () => {
      set.delete(onFrame);
      if (set.size === 0) this.subscribers.delete(uid);
    };
  }

  onLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  close(): void {
    const socket = this.socket;
    this.reset();
    socket?.close(1000);
  }

  private async request(message: Record<string, unknown>): Promise<Reply> {
    const socket = await this.connect();
    return this.send(socket, message);
  }

  private send(socket: WebSocket, message: Record<string, unknown>): Promise<Reply> {
    this.seq += 1;
    const seq = this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, (reply) =>
        reply.type === 'ack' ? resolve(reply) : reject(new VideoSourceError(reply.code ?? 'internal')),
      );
      socket.send(JSON.stringify({ ...message, seq }));
    });
  }

  private connect(): Promise<WebSocket> {
    this.ready ??= this.open().catch((error: unknown) => {
      this.reset();
      throw error;
    });
    return this.ready;
  }

  private async open(): Promise<WebSocket> {
    const answer = await apiRequest<never, AuthCode>('POST', '/api/Talk/AuthCode');
    const authCode = answer.BaseData?.authCode;
    if (!authCode) throw new VideoSourceError('bad_auth_code');
    const socket = this.openSocket(this.url());
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new VideoSourceError('unavailable'));
    });
    socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => this.receive(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.reset();
      for (const listener of this.lostListeners) listener();
    };
    await this.send(socket, { type: 'login', authCode });
    // The server drops a seat silent for 3 heartbeats; one every third of that keeps it.
    this.heartbeat = setInterval(
      () => void this.send(socket, { type: 'heartbeat' }).catch(() => undefined),
      TerminalLimits.heartbeatSeconds * 1000,
    );
    return socket;
  }

  private receive(data: ArrayBuffer | string): void {
    if (typeof data !== 'string') {
      const frame = decodeVideoDownFrame(new Uint8Array(data));
      if (!frame) return;
      for (const onFrame of this.subscribers.get(frame.uid) ?? []) onFrame(frame);
      return;
    }
    const message = JSON.parse(data) as Reply;
    if ((message.type === 'ack' || message.type === 'error') && typeof message.seq === 'number') {
      const settle = this.pending.get(message.seq);
      this.pending.delete(message.seq);
      settle?.(message);
    }
  }

  private reset(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.socket = null;
    this.ready = null;
    this.watching.clear();
    for (const settle of this.pending.values()) settle({ type: 'error', seq: 0, code: 'unavailable' });
    this.pending.clear();
  }
}
