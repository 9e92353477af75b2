import type { AuthCode, TalkAgentEvent, TalkSeat } from '@intercom/contract';
import { AgentTransport } from './AgentTransport';
import { BrowserTransport } from './BrowserTransport';
import { SeatSession, type TalkAccount } from './SeatSession';
import { TalkChannels } from './TalkChannels';
import { TalkLink } from './TalkLink';
import { TalkStore } from './TalkStore';
import { TalkVideos } from './TalkVideos';
import {
  TalkError,
  type TalkCall,
  type TalkConnection,
  type TalkMode,
  type TalkState,
  type TalkStatus,
  type TalkTransport,
  type TalkVideoFrame,
} from './talkTypes';

/** How long the first agent probe may take before the console offers browser talk. */
const AGENT_PROBE_MS = 1_500;

/**
 * Whether this browser has ever found the local agent. Chromium logs every refused WebSocket as a
 * red line in the page's console, so a browser that never had one is not probed at sign-in: the
 * talk panel probes when it opens (TalkClient.probeAgent).
 */
export interface AgentMemory {
  seen(): boolean;
  remember(): void;
}

export interface TalkClientDeps {
  createAgent: () => TalkTransport;
  createBrowser: () => TalkTransport;
  /** `POST /api/Talk/AuthCode`. */
  fetchAuthCode: () => Promise<AuthCode>;
  /** Whether browser talk can run here (secure context, WebCodecs Opus). */
  browserProblem: () => Promise<TalkStatus['key'] | null>;
  secureContext: boolean;
  /** Absent: the agent is looked for at sign-in, found before or not. */
  agentMemory?: AgentMemory;
}

/**
 * The one owner of the talk connection (like shared/hub owns the hub): picks the transport (the
 * local agent when one answers, else this browser) and follows its connection, and hands its events
 * to the parts that keep the state the talk UI shows: the seat's login (SeatSession), its channels,
 * calls and microphone (TalkChannels) and its videos (TalkVideos). Every outcome becomes a SPEC.md 8
 * status. Features use it through talk/index.ts.
 */
export class TalkClient {
  private readonly store: TalkStore;
  private readonly link: TalkLink;
  private readonly channels: TalkChannels;
  private readonly videos: TalkVideos;
  private readonly seat: SeatSession;
  private probeTimer: ReturnType<typeof setTimeout> | undefined;
  private started = false;

  constructor(private readonly deps: TalkClientDeps) {
    this.store = new TalkStore(deps.secureContext);
    this.link = new TalkLink(this.store);
    this.channels = new TalkChannels(this.store, this.link);
    this.videos = new TalkVideos(this.store, this.link);
    this.seat = new SeatSession(this.store, this.link, this.channels, deps.fetchAuthCode);
  }

  // --- state for React (useSyncExternalStore) ---
  getState = (): TalkState => this.store.getState();
  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);
  /** SPEC.md 8 texts as they happen (the console shows them as messages). */
  onStatus(listener: (status: TalkStatus) => void): () => void {
    return this.store.onStatus(listener);
  }
  /** Video frames (kind 2) of the videos applied for, from whichever transport runs. */
  onVideoFrame(listener: (frame: TalkVideoFrame) => void): () => void {
    return this.videos.onFrame(listener);
  }

  /** The signed-in account (TalkConnection keeps it current). */
  setAccount(account: TalkAccount | null): void {
    this.seat.setAccount(account);
  }

  getAccount(): TalkAccount | null {
    return this.seat.getAccount();
  }

  // --- life cycle ---
  /** Signed in: look for the local agent at once where this browser had one, else when the panel asks. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.deps.browserProblem().then((problem) => this.store.set({ webCodecs: problem !== 'no_webcodecs' }));
    if (this.deps.agentMemory?.seen() ?? true) this.probeAgent();
  }

  /**
   * Looks for the local agent now (the talk panel opened) and keeps looking on the ProbeSchedule;
   * nothing when a transport already runs (the agent's or the browser's) or nobody is signed in.
   */
  probeAgent(): void {
    if (!this.started || this.link.transport) return;
    this.use('agent');
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => {
      const { mode, connection } = this.store.getState();
      if (mode === 'agent' && connection !== 'connected') this.store.set({ agent: 'absent' });
    }, AGENT_PROBE_MS);
  }

  /** Signed out: drop the seat and every socket. */
  stop(): void {
    clearTimeout(this.probeTimer);
    this.started = false;
    this.seat.want(false);
    this.link.transport?.stop();
    this.link.transport = null;
    this.store.reset();
  }

  /** A new transport starts with no seat; the one before is stopped. */
  private use(mode: TalkMode): void {
    this.link.transport?.stop();
    const transport = mode === 'agent' ? this.deps.createAgent() : this.deps.createBrowser();
    this.link.transport = transport;
    this.seat.dropSeat(false, { mode, connection: 'connecting' });
    transport.start({
      connection: (connection) => this.link.transport === transport && this.onConnection(connection),
      event: (event) => this.link.transport === transport && this.onEvent(event),
      video: (frame) => this.videos.frame(frame),
      monitorState: (state) => {
        if (state === 'disconnected' && this.store.getState().agent === 'present') {
          this.store.status({ key: 'monitor_disconnected', level: 'warning' });
        }
      },
      update: (state) =>
        this.store.status(
          state === 'updating'
            ? { key: 'service_updating', level: 'info' }
            : state === 'success'
              ? { key: 'update_success', level: 'success' }
              : { key: 'update_failed', level: 'error' },
        ),
    });
  }

  /** Connected: the wanted seat logs in again. Disconnected: the seat is lost, its channels kept to rejoin. */
  private onConnection(connection: TalkConnection): void {
    const { connection: was, mode, agent } = this.store.getState();
    const patch: Partial<TalkState> = { connection };
    if (connection === 'connected') {
      if (mode === 'agent') {
        patch.agent = 'present';
        this.deps.agentMemory?.remember();
      }
      this.store.status({ key: 'talk_connected', level: 'success' });
      this.seat.connected();
    }
    if (connection !== 'disconnected') return this.store.set(patch);
    if (was === 'connected') this.store.status({ key: 'talk_disconnected', level: 'warning' });
    else if (mode === 'agent' && agent === 'unknown') patch.agent = 'absent';
    this.seat.dropSeat(false, patch);
  }

  private onEvent(event: TalkAgentEvent): void {
    switch (event.event) {
      case 'floorTaken':
      case 'floorIdle':
      case 'floorRevoked':
      case 'callStart':
      case 'callEnd':
      case 'micLevel':
      case 'regrouped':
      case 'channelLeft':
        return this.channels.onEvent(event);
      case 'videoOnline':
        return this.videos.online(event.video);
      case 'videoOffline':
        return this.videos.offline(event.uid);
      case 'loggedOut':
        return this.seat.loggedOut(event.reason);
      case 'server':
        return this.seat.server(event.state);
    }
  }

  // --- commands: each resolves when accepted, or rejects with a TalkError whose status is shown ---
  /** Talk from this browser instead of (or without) the local agent. */
  async useBrowserTalk(): Promise<void> {
    const problem = await this.deps.browserProblem();
    if (problem) {
      this.store.status({ key: problem, level: 'error' });
      throw new TalkError(problem);
    }
    this.seat.want(true);
    this.use('browser');
  }

  /** Go back to looking for the local agent. */
  useAgent(): void {
    this.seat.want(false);
    this.use('agent');
  }

  /** The intercom-account login: a one-time AuthCode from the server, handed to the transport. */
  login(): Promise<TalkSeat> {
    return this.seat.login();
  }

  logout(): Promise<void> {
    return this.seat.logout();
  }

  groupCall(cid: number, name?: string): Promise<void> {
    return this.channels.groupCall(cid, name);
  }

  privateCall(uid: number, name?: string): Promise<number> {
    return this.channels.privateCall(uid, name);
  }

  /** Leaves the channel or hangs up the call (default: the current one). */
  endCall(cid?: number): Promise<void> {
    return this.channels.endCall(cid);
  }

  /** Takes an emergency call offered by an SOS or ManDown as the current one (push-to-talk talks in it). */
  answerCall(cid: number): Promise<void> {
    return this.channels.answerCall(cid);
  }

  /** Push-to-talk pressed: ask for the floor of the current channel or call. */
  applyMic(): Promise<void> {
    return this.channels.applyMic();
  }

  /** Push-to-talk released. */
  freeMic(): Promise<void> {
    return this.channels.freeMic();
  }

  /** Listen to these channels besides the current one (replaces the set). */
  monitor(cids: readonly number[], names?: ReadonlyMap<number, string>): Promise<void> {
    return this.channels.monitor(cids, names);
  }

  applyVideo(uid: number): Promise<void> {
    return this.videos.apply(uid);
  }

  freeVideo(uid: number): Promise<void> {
    return this.videos.free(uid);
  }

  /** Frames sent and decoded by browser talk (null with the agent). */
  async audioStats(): Promise<{ sent: number; decoded: number } | null> {
    const transport = this.link.transport;
    return transport instanceof BrowserTransport ? transport.audioStats() : null;
  }
}

export { AgentTransport, BrowserTransport };
export type { TalkAccount, TalkCall };
