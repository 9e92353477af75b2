import { TALK_RETRY_MS, TalkAgentErrors, type TalkSeat } from '@intercom/contract';
import {
  DispatcherSeat,
  SeatError,
  TerminalSocket,
  type AudioDown,
  type SeatAudio,
  type SeatInfo,
  type SeatMic,
  type SocketLike,
  type VideoDown,
} from '@intercom/terminal-client';
import type { BrowserAudio } from '@intercom/browser-audio';
import {
  TalkError,
  type MonitorFailure,
  type SeatLogin,
  type TalkConnection,
  type TalkTransport,
  type TransportSink,
} from './talkTypes';

/** What the seat uses of `@intercom/browser-audio` (tests pass a fake). */
export type BrowserAudioEngine = Pick<BrowserAudio, 'openMic' | 'startSending' | 'play' | 'close' | 'stats'> & {
  stopSending(): Promise<void> | void;
};

export interface BrowserTransportOptions {
  /** ws(s)://host/terminal; default: this page's origin. */
  url?: string;
  /** The microphone, Opus and playback; default: WebCodecs + AudioWorklet (`@intercom/browser-audio`). */
  createAudio?: () => Promise<BrowserAudioEngine>;
  /** Opens a WebSocket; default: the browser's (tests pass the `ws` package's). */
  openSocket?: (url: string) => SocketLike;
  /** The wait before dialling again after the socket closed; default TALK_RETRY_MS (SPEC.md 9). */
  retryMs?: number;
}

/** The `/terminal` address of the server this page came from. */
export function terminalUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/terminal`;
}

/** A seat's failure as the console's TalkError (same code); anything else as it is. */
function talkError(error: unknown): never {
  throw error instanceof SeatError ? new TalkError(error.code, error.message) : error;
}

/**
 * The tab's sound for the seat: `@intercom/browser-audio`, made once on first need (the login starts it, so
 * the first speech heard is not lost; frames that come before it is ready are dropped).
 */
class TabAudio implements SeatAudio {
  private engine: Promise<BrowserAudioEngine> | null = null;
  private ready: BrowserAudioEngine | null = null;
  /** The talk under way: a stop while the engine was still starting cancels it. */
  private sending: SeatMic | null = null;

  constructor(
    private readonly create: () => Promise<BrowserAudioEngine>,
    private readonly sink: () => TransportSink | null,
  ) {}

  start(): Promise<BrowserAudioEngine> {
    this.engine ??= this.create().then(
      (engine) => (this.ready = engine),
      (error: unknown) => {
        this.engine = null;
        throw error;
      },
    );
    return this.engine;
  }

  async openMic(): Promise<void> {
    await (await this.start()).openMic();
  }

  async startSending(_cid: number, mic: SeatMic): Promise<void> {
    this.sending = mic;
    const engine = await this.start();
    if (this.sending !== mic) return;
    engine.startSending(
      (opus) => mic.packet(opus),
      (level) => mic.level(level),
    );
  }

  async stopSending(): Promise<void> {
    this.sending = null;
    await this.ready?.stopSending();
  }

  play(heard: AudioDown): void {
    this.ready?.play(heard.cid, heard.speaker, heard.opus);
  }

  video(frame: VideoDown): void {
    this.sink()?.video(frame);
  }

  async stats(): Promise<{ sent: number; decoded: number } | null> {
    return this.engine ? (await this.engine).stats() : null;
  }

  close(): void {
    void this.engine?.then((engine) => engine.close()).catch(() => undefined);
    this.engine = this.ready = null;
  }
}

/**
 * Talking from the browser alone: this tab is the dispatcher seat on `/terminal` and carries the
 * audio itself (`@intercom/browser-audio`). The seat's rules and the server's pushes in the agent's event
 * shapes are DispatcherSeat's, the same as the talk agent's; this class adds the tab's sound and a
 * socket that dials again every TALK_RETRY_MS while it is down.
 */
export class BrowserTransport implements TalkTransport {
  readonly mode = 'browser' as const;
  private sink: TransportSink | null = null;
  private socket: TerminalSocket | null = null;
  private told: TalkConnection | null = null;
  private readonly audio: TabAudio;
  private readonly seat: DispatcherSeat;
  private readonly url: string;
  private readonly openSocket: (url: string) => SocketLike;
  private readonly retryMs: number;

  constructor(options: BrowserTransportOptions = {}) {
    this.url = options.url ?? terminalUrl();
    this.openSocket = options.openSocket ?? ((url) => new WebSocket(url));
    this.retryMs = options.retryMs ?? TALK_RETRY_MS;
    const create = options.createAudio ?? (async () => (await import('@intercom/browser-audio')).BrowserAudio.create());
    this.audio = new TabAudio(create, () => this.sink);
    this.seat = new DispatcherSeat(this.audio);
    this.seat.on('event', (event) => {
      // A lost platform is told by the connection: `disconnected`, and a new login once it is back.
      if (event.event !== 'loggedOut' || event.reason !== 'server_lost') this.sink?.event(event);
    });
  }

  start(sink: TransportSink): void {
    this.sink = sink;
    this.tell('connecting');
    this.socket = this.dial();
  }

  stop(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.audio.close();
    this.sink = null;
  }

  /** The audio engine's counters (frames sent, frames decoded), for the panel's diagnostics. */
  audioStats(): Promise<{ sent: number; decoded: number } | null> {
    return this.audio.stats();
  }

  /** The seat's state, as the agent's LoginInfo tells it. */
  info(): SeatInfo {
    return this.seat.info();
  }

  /** A socket that dials again every retryMs after any close (a replaced seat's tab too), until stop(). */
  private dial(): TerminalSocket {
    const socket = new TerminalSocket({
      connect: () => this.openSocket(this.url),
      // No back-off and no jitter: one tab, its own server, and the period SPEC.md 9 names.
      reconnect: { initialMs: this.retryMs, maxMs: this.retryMs, finalCloseCodes: [] },
      random: () => 0.5,
    });
    socket.on('open', () => this.socket === socket && this.tell('connected'));
    socket.on('close', () => this.socket === socket && this.tell('disconnected'));
    return socket;
  }

  /**
   * After the seat logged out on it the server closes the socket: a new one takes its place at
   * once, and the console hears of it only if that one cannot connect.
   */
  private renew(): void {
    const old = this.socket;
    this.socket = this.dial();
    old?.close();
  }

  private tell(state: TalkConnection): void {
    if (state === this.told) return;
    this.told = state;
    this.sink?.connection(state);
  }

  async login(login: SeatLogin): Promise<TalkSeat> {
    if (this.seat.loggedIn) {
      await this.seat.logout(false);
      this.renew();
      await this.socket?.opened().catch(() => undefined);
    }
    if (!this.socket) throw new TalkError(TalkAgentErrors.serverUnreachable);
    const { authCode, dispatchNo } = login;
    const { seat } = await this.seat.login(this.socket, { authCode, dispatchNo, server: this.url }).catch((error) => {
      if (error instanceof SeatError && error.code === TalkAgentErrors.accountMismatch) this.renew();
      return talkError(error);
    });
    void this.audio.start().catch(() => undefined);
    // As AgentTransport does after Login (SPEC.md 4): the video list, then online/offline pushes keep it.
    const videos = await this.seat.videoList().catch(() => []);
    for (const video of videos) this.sink?.event({ event: 'videoOnline', video });
    return seat;
  }

  async logout(): Promise<void> {
    if (!this.seat.loggedIn) return;
    await this.seat.logout();
    this.renew();
    // Ready for the next login when this resolves (or the socket failed and the console was told).
    await this.socket?.opened().catch(() => undefined);
  }

  async groupCall(cid: number): Promise<void> {
    await this.seat.groupCall(cid).catch(talkError);
  }

  privateCall(uid: number): Promise<number> {
    return this.seat.privateCall(uid).catch(talkError);
  }

  async endCall(cid: number): Promise<void> {
    await this.seat.endCall(cid).catch(talkError);
  }

  async answerCall(cid: number): Promise<void> {
    await Promise.resolve()
      .then(() => this.seat.answerCall(cid))
      .catch(talkError);
  }

  async applyMic(cid: number): Promise<void> {
    await this.seat.applyMic(cid).catch(talkError);
  }

  async freeMic(cid: number): Promise<void> {
    await this.seat.freeMic(cid).catch(talkError);
  }

  async monitor(cids: readonly number[]): Promise<MonitorFailure[]> {
    return (await this.seat.monitor(cids).catch(talkError)).failed;
  }

  applyVideo(uid: number): Promise<void> {
    return this.seat.applyVideo(uid).catch(talkError);
  }

  freeVideo(uid: number): Promise<void> {
    return this.seat.freeVideo(uid).catch(talkError);
  }
}
