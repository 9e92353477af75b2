import {
  CALL_ID_BASE,
  TALK_RETRY_MS,
  TalkAgentErrors,
  TerminalCloseCodes,
  type TalkAgentEvent,
  type TalkSeat,
} from '@intercom/contract';
import { decodeAudioDown, decodeVideoDown, encodeAudioUp } from '@intercom/terminal-client';
import type { BrowserAudio } from './browserAudio';
import { TalkError, type SeatLogin, type TalkTransport, type TransportSink } from './talkTypes';
import { PendingReplies } from './PendingReplies';

const SERVER_EVENTS = new Set(['floorTaken', 'floorIdle', 'floorRevoked', 'callStart', 'callEnd', 'videoOffline']);

/** The server's `{type:"videoOnline", uid, name, codecs}` in the agent's shape (`video` nested). */
function videoOnline(message: Record<string, unknown>): TalkAgentEvent {
  const { uid, name, codecs } = message;
  return { event: 'videoOnline', video: { uid: Number(uid), name: String(name), codecs: codecs as string[] } };
}

export interface BrowserTransportOptions {
  /** ws(s)://host/terminal; default: this page's origin. */
  url?: string;
  /** The microphone, Opus and playback; default: WebCodecs + AudioWorklet (browserAudio.ts). */
  createAudio?: () => Promise<BrowserAudio>;
}

/** The seat's end a close code tells (docs/terminal-protocol.md): 4001 replaced, 4002 its session ended. */
function loggedOutReason(code: number): 'replaced' | 'session_end' | undefined {
  if (code === TerminalCloseCodes.replaced) return 'replaced';
  if (code === TerminalCloseCodes.accountChanged) return 'session_end';
  return undefined;
}

/** The `/terminal` address of the server this page came from. */
export function terminalUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/terminal`;
}

/**
 * Talking from the browser alone: this tab is the dispatcher seat on `/terminal` (login with the
 * AuthCode, join/leave, floorRequest/floorRelease, call/hangup) and carries the audio itself
 * (browserAudio.ts). Server pushes are handed on in the agent's event shapes, so the talk owner
 * sees one vocabulary whichever transport runs.
 */
export class BrowserTransport implements TalkTransport {
  readonly mode = 'browser' as const;
  private sink: TransportSink | null = null;
  private socket: WebSocket | null = null;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;
  private seq = 0;
  private readonly pending = new PendingReplies();
  /** Channels joined on the socket: the current one and the monitored ones. */
  private readonly joined = new Set<number>();
  private current: number | null = null;
  private monitored = new Set<number>();
  private audio: Promise<BrowserAudio> | null = null;
  private sending: { cid: number; seq: number } | null = null;
  private readonly url: string;
  private readonly createAudio: () => Promise<BrowserAudio>;

  constructor(options: BrowserTransportOptions = {}) {
    this.url = options.url ?? terminalUrl();
    this.createAudio = options.createAudio ?? (async () => (await import('./browserAudio')).BrowserAudio.create());
  }

  start(sink: TransportSink): void {
    this.sink = sink;
    this.stopped = false;
    sink.connection('connecting');
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.closeSocket();
    void this.audio?.then((audio) => audio.close()).catch(() => undefined);
    this.audio = null;
    this.sink = null;
  }

  /** The audio engine's counters (frames sent, frames decoded), for the panel's diagnostics. */
  async audioStats(): Promise<{ sent: number; decoded: number } | null> {
    return this.audio ? (await this.audio).stats() : null;
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(this.url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => this.sink?.connection('connected');
    socket.onmessage = (message: MessageEvent<string | ArrayBuffer>) => {
      if (typeof message.data === 'string') this.onText(message.data);
      else this.onBinary(message.data);
    };
    socket.onerror = () => undefined;
    socket.onclose = (close: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.reset();
      // As the agent reads them: a newer seat of this session replaced this one, or the session ended.
      // The talk owner then stops asking for a seat, so two tabs of one session never take turns.
      const reason = loggedOutReason(close.code);
      if (reason) this.sink?.event({ event: 'loggedOut', reason });
      this.sink?.connection('disconnected');
      if (!this.stopped) this.retry = setTimeout(() => this.connect(), TALK_RETRY_MS);
    };
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.reset();
  }

  /** A lost socket loses the seat, its channels and its floor. */
  private reset(): void {
    this.pending.failAll(TalkAgentErrors.serverUnreachable);
    this.joined.clear();
    this.current = null;
    this.monitored.clear();
    this.stopSending();
  }

  private onText(text: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    const { type } = message;
    if ((type === 'ack' || type === 'error') && typeof message.seq === 'number') {
      const refused =
        type === 'error' ? { code: String(message.code), message: String(message.message ?? '') } : undefined;
      this.pending.settle(message.seq, message, refused);
      return;
    }
    if (type === 'videoOnline') return this.sink?.event(videoOnline(message));
    if (typeof type !== 'string' || !SERVER_EVENTS.has(type)) return;
    const { type: _type, ...fields } = message;
    const event = { event: type, ...fields } as TalkAgentEvent;
    if ((event.event === 'floorRevoked' || event.event === 'floorIdle') && this.sending?.cid === event.cid) {
      this.stopSending();
    }
    this.sink?.event(event);
  }

  private onBinary(data: ArrayBuffer): void {
    const frame = new Uint8Array(data);
    const video = decodeVideoDown(frame);
    if (video) {
      this.sink?.video(video);
      return;
    }
    const heard = decodeAudioDown(frame);
    if (!heard || !this.audio) return;
    void this.audio.then((audio) => audio.play(heard.cid, heard.speaker, heard.opus)).catch(() => undefined);
  }

  private send(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new TalkError(TalkAgentErrors.serverUnreachable));
    }
    const seq = ++this.seq;
    return this.pending.wait(seq, () => socket.send(JSON.stringify({ seq, ...message })));
  }

  /** The audio engine, made once; hearing starts with the seat, so the first speech is not lost. */
  private engine(): Promise<BrowserAudio> {
    this.audio ??= this.createAudio().catch((error: unknown) => {
      this.audio = null;
      throw error;
    });
    return this.audio;
  }

  async login(login: SeatLogin): Promise<TalkSeat> {
    const ack = await this.send({ type: 'login', authCode: login.authCode });
    const seat = ack.seat as TalkSeat;
    if (seat.dispatchNo !== login.dispatchNo) throw new TalkError(TalkAgentErrors.accountMismatch);
    void this.engine().catch(() => undefined);
    // As the agent does after LoginInfo (SPEC.md 4): the video list, then online/offline pushes keep it.
    const list = await this.send({ type: 'videoList' }).catch(() => ({ videos: [] }));
    for (const video of (list.videos ?? []) as Record<string, unknown>[]) this.sink?.event(videoOnline(video));
    return seat;
  }

  async logout(): Promise<void> {
    await this.send({ type: 'logout' }).catch(() => undefined);
    this.closeSocket();
  }

  private async join(cid: number): Promise<void> {
    if (this.joined.has(cid)) return;
    await this.send({ type: 'join', cid });
    this.joined.add(cid);
  }

  private async leave(cid: number): Promise<void> {
    if (!this.joined.has(cid)) return;
    this.joined.delete(cid);
    await this.send({ type: 'leave', cid });
  }

  async groupCall(cid: number): Promise<void> {
    await this.join(cid);
    this.current = cid;
  }

  async privateCall(uid: number): Promise<number> {
    const ack = await this.send({ type: 'call', uid });
    const cid = Number(ack.cid);
    this.current = cid;
    return cid;
  }

  async endCall(cid: number): Promise<void> {
    if (this.sending?.cid === cid) await this.freeMic(cid);
    if (this.current === cid) this.current = null;
    if (cid >= CALL_ID_BASE) await this.send({ type: 'hangup', cid });
    else if (!this.monitored.has(cid)) await this.leave(cid);
  }

  async applyMic(cid: number): Promise<void> {
    // The microphone opens before the floor is asked for, so a permission prompt never holds a floor.
    const audio = await this.engine();
    await audio.openMic();
    await this.send({ type: 'floorRequest', cid });
    this.sending = { cid, seq: 0 };
    audio.startSending(
      (opus) => {
        const sending = this.sending;
        if (!sending || this.socket?.readyState !== WebSocket.OPEN) return;
        this.socket.send(encodeAudioUp({ ...sending, opus }));
        sending.seq = (sending.seq + 1) & 0xffff;
      },
      (level) => this.sink?.event({ event: 'micLevel', level }),
    );
  }

  private stopSending(): void {
    this.sending = null;
    void this.audio?.then((audio) => audio.stopSending()).catch(() => undefined);
  }

  async freeMic(cid: number): Promise<void> {
    this.stopSending();
    await this.send({ type: 'floorRelease', cid });
  }

  async monitor(cids: readonly number[]): Promise<void> {
    const wanted = new Set(cids);
    for (const cid of this.monitored) {
      if (!wanted.has(cid) && cid !== this.current) await this.leave(cid);
    }
    for (const cid of wanted) await this.join(cid);
    this.monitored = wanted;
  }

  async applyVideo(uid: number): Promise<void> {
    await this.send({ type: 'videoApply', uid });
  }

  async freeVideo(uid: number): Promise<void> {
    await this.send({ type: 'videoFree', uid });
  }
}
