import { CALL_ID_BASE, type AuthCode, type TalkAgentEvent, type TalkSeat } from '@intercom/contract';
import { AgentTransport } from './AgentTransport';
import { BrowserTransport } from './BrowserTransport';
import { talkStatusOf } from './talkStatusOf';
import {
  TalkError,
  type FloorState,
  type MicState,
  type SeatLogin,
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

export interface TalkClientDeps {
  createAgent: () => TalkTransport;
  createBrowser: () => TalkTransport;
  /** `POST /api/Talk/AuthCode`. */
  fetchAuthCode: () => Promise<AuthCode>;
  /** Whether browser talk can run here (secure context, WebCodecs Opus). */
  browserProblem: () => Promise<TalkStatus['key'] | null>;
  secureContext: boolean;
}

const INITIAL: TalkState = {
  mode: null,
  agent: 'unknown',
  connection: 'idle',
  seat: null,
  current: null,
  monitored: [],
  floors: new Map(),
  calls: new Map(),
  mic: 'off',
  micLevel: 0,
  lastLoss: null,
  videos: [],
  secureContext: true,
  webCodecs: true,
  names: new Map(),
  authCode: null,
};

type Listener = () => void;

export interface TalkAccount {
  /** The platform's origin. */
  proxy: string;
  /** E_ID. */
  partyId: number;
  /** The console account's name. */
  name: string;
  /** `D<A_ID>`. */
  dispatchNo: string;
}

/**
 * The one owner of the talk connection (like shared/hub owns the hub): picks the transport (the
 * local agent when one answers, else this browser), keeps the state the talk UI shows, turns every
 * outcome into a SPEC.md 8 status, and hands video frames to their subscribers. Features use it
 * through talk/index.ts.
 */
export class TalkClient {
  private state: TalkState;
  private transport: TalkTransport | null = null;
  private readonly listeners = new Set<Listener>();
  private readonly statusListeners = new Set<(status: TalkStatus) => void>();
  private readonly videoListeners = new Set<(frame: TalkVideoFrame) => void>();
  private probeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Logged in on purpose: a transport that comes back logs in again with a fresh AuthCode. */
  private wantSeat = false;
  private started = false;
  /** The SPEC.md 3 login payload's Proxy, PartyID and Uid: the signed-in account. */
  private account: TalkAccount | null = null;
  /** The agent said the platform dropped the seat (`loggedOut server_lost`) and it is not back yet. */
  private serverLost = false;

  constructor(private readonly deps: TalkClientDeps) {
    this.state = { ...INITIAL, secureContext: deps.secureContext };
  }

  // --- state for React (useSyncExternalStore) ---
  getState = (): TalkState => this.state;
  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  /** SPEC.md 8 texts as they happen (the console shows them as messages). */
  onStatus(listener: (status: TalkStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }
  /** Video frames (kind 2) of the videos applied for, from whichever transport runs. */
  onVideoFrame(listener: (frame: TalkVideoFrame) => void): () => void {
    this.videoListeners.add(listener);
    return () => this.videoListeners.delete(listener);
  }

  private set(patch: Partial<TalkState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  private status(status: TalkStatus): void {
    for (const listener of this.statusListeners) listener(status);
  }

  /** The signed-in account (TalkConnection keeps it current). */
  setAccount(account: TalkAccount | null): void {
    this.account = account;
  }

  getAccount(): TalkAccount | null {
    return this.account;
  }

  // --- life cycle ---
  /** Signed in: look for the local agent (and keep looking every 5 s). */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.deps.browserProblem().then((problem) => this.set({ webCodecs: problem !== 'no_webcodecs' }));
    this.use('agent');
    this.probeTimer = setTimeout(() => {
      if (this.state.mode === 'agent' && this.state.connection !== 'connected') this.set({ agent: 'absent' });
    }, AGENT_PROBE_MS);
  }

  /** Signed out: drop the seat and every socket. */
  stop(): void {
    clearTimeout(this.probeTimer);
    this.started = false;
    this.wantSeat = false;
    this.transport?.stop();
    this.transport = null;
    this.state = { ...INITIAL, secureContext: this.deps.secureContext };
    for (const listener of this.listeners) listener();
  }

  private use(mode: TalkMode): void {
    this.transport?.stop();
    const transport = mode === 'agent' ? this.deps.createAgent() : this.deps.createBrowser();
    this.transport = transport;
    this.set({
      mode,
      connection: 'connecting',
      seat: null,
      floors: new Map(),
      calls: new Map(),
      mic: 'off',
      videos: [],
    });
    transport.start({
      connection: (connection) => this.transport === transport && this.onConnection(connection),
      event: (event) => this.transport === transport && this.onEvent(event),
      video: (frame) => {
        for (const listener of this.videoListeners) listener(frame);
      },
      monitorState: (state) => {
        if (state === 'disconnected' && this.state.agent === 'present') {
          this.status({ key: 'monitor_disconnected', level: 'warning' });
        }
      },
      update: (state) =>
        this.status(
          state === 'updating'
            ? { key: 'service_updating', level: 'info' }
            : state === 'success'
              ? { key: 'update_success', level: 'success' }
              : { key: 'update_failed', level: 'error' },
        ),
    });
  }

  private onConnection(connection: TalkConnection): void {
    const was = this.state.connection;
    const patch: Partial<TalkState> = { connection };
    if (connection === 'connected') {
      if (this.state.mode === 'agent') patch.agent = 'present';
      this.status({ key: 'talk_connected', level: 'success' });
      if (this.wantSeat) void this.login().catch(() => undefined);
    }
    if (connection === 'disconnected') {
      // The server forgets a lost seat's videos: the list comes again with the next login.
      Object.assign(patch, { seat: null, floors: new Map(), calls: new Map(), mic: 'off', micLevel: 0, videos: [] });
      if (was === 'connected') this.status({ key: 'talk_disconnected', level: 'warning' });
      else if (this.state.mode === 'agent' && this.state.agent === 'unknown') patch.agent = 'absent';
    }
    this.set(patch);
  }

  private floor(cid: number, patch: Partial<FloorState>): Map<number, FloorState> {
    const floors = new Map(this.state.floors);
    const previous = floors.get(cid) ?? { cid, holder: null, since: Date.now(), mine: false };
    floors.set(cid, { ...previous, ...patch });
    return floors;
  }

  private onEvent(event: TalkAgentEvent): void {
    switch (event.event) {
      case 'floorTaken': {
        const mine = event.uid === 0 && event.name === this.state.seat?.name && this.state.mic !== 'off';
        const holder = { uid: event.uid, name: event.name, priority: event.priority };
        this.set({ floors: this.floor(event.cid, { holder, since: Date.now(), mine }) });
        return;
      }
      case 'floorIdle': {
        const micOff = this.state.current === event.cid && this.state.mic === 'on';
        this.set({
          floors: this.floor(event.cid, { holder: null, since: Date.now(), mine: false }),
          ...(micOff ? { mic: 'off' as const, micLevel: 0 } : {}),
        });
        return;
      }
      case 'floorRevoked':
        this.set({ lastLoss: { cid: event.cid, reason: event.reason, at: Date.now() }, mic: 'off', micLevel: 0 });
        this.status({ key: 'preempted', level: 'warning', params: { reason: event.reason } });
        return;
      case 'callStart': {
        const calls = new Map(this.state.calls);
        calls.set(event.cid, { cid: event.cid, peerUid: event.from, peerName: event.name, incoming: true });
        this.set({ calls, current: this.state.current ?? event.cid, names: this.named(event.cid, event.name) });
        return;
      }
      case 'callEnd': {
        const calls = new Map(this.state.calls);
        calls.delete(event.cid);
        const floors = new Map(this.state.floors);
        floors.delete(event.cid);
        this.set({ calls, floors, current: this.state.current === event.cid ? null : this.state.current });
        return;
      }
      case 'micLevel':
        if (this.state.mic === 'on') this.set({ micLevel: event.level });
        return;
      case 'videoOnline':
        this.set({ videos: [...this.state.videos.filter((v) => v.uid !== event.video.uid), event.video] });
        return;
      case 'videoOffline':
        this.set({ videos: this.state.videos.filter((v) => v.uid !== event.uid) });
        return;
      case 'loggedOut':
        // The platform was lost (docs/talk-agent-protocol.md): the seat comes back with a new Login
        // once the agent says `server connected`, with the channels it had.
        if (event.reason === 'server_lost') {
          this.serverLost = true;
          // The video list goes with the seat; the new Login asks for it again.
          this.set({ seat: null, floors: new Map(), calls: new Map(), mic: 'off', micLevel: 0, videos: [] });
          return;
        }
        this.wantSeat = false;
        this.set({
          seat: null,
          floors: new Map(),
          calls: new Map(),
          mic: 'off',
          current: null,
          monitored: [],
          videos: [],
        });
        if (event.reason === 'replaced') this.status({ key: 'account_shortage', level: 'warning' });
        return;
      case 'server':
        if (event.state === 'disconnected') this.status({ key: 'not_connected', level: 'warning' });
        else if (this.serverLost) {
          // Also sent while a Login is under way: only a seat the platform dropped logs in again.
          this.serverLost = false;
          if (this.wantSeat && !this.state.seat) void this.login().catch(() => undefined);
        }
        return;
    }
  }

  // --- commands ---
  /** Runs a command; a failure becomes its SPEC.md 8 status and is rethrown. */
  private async run<T>(work: (transport: TalkTransport) => Promise<T>, okStatus?: TalkStatus): Promise<T> {
    const transport = this.transport;
    try {
      if (!transport || this.state.connection !== 'connected') throw new TalkError('server_unreachable');
      const result = await work(transport);
      if (okStatus) this.status(okStatus);
      return result;
    } catch (error) {
      this.status(talkStatusOf(error));
      throw error;
    }
  }

  private needSeat(): void {
    if (!this.state.seat) throw new TalkError('not_logged_in');
  }

  /** Talk from this browser instead of (or without) the local agent. */
  async useBrowserTalk(): Promise<void> {
    const problem = await this.deps.browserProblem();
    if (problem) {
      this.status({ key: problem, level: 'error' });
      throw new TalkError(problem);
    }
    this.wantSeat = true;
    this.use('browser');
  }

  /** Go back to looking for the local agent. */
  useAgent(): void {
    this.wantSeat = false;
    this.use('agent');
  }

  /** The intercom-account login: a one-time AuthCode from the server, handed to the transport. */
  async login(): Promise<TalkSeat> {
    this.wantSeat = true;
    const account = this.account;
    let code: AuthCode;
    try {
      if (!account) throw new TalkError('no_chat_account');
      code = await this.deps.fetchAuthCode();
    } catch (error) {
      const status: TalkStatus =
        error instanceof TalkError
          ? { key: 'no_chat_account', level: 'error' }
          : { key: 'chat_account_failed', level: 'error' };
      this.status(status);
      throw error;
    }
    const login: SeatLogin = {
      proxy: account.proxy,
      partyId: account.partyId,
      account: account.name,
      authCode: code.authCode,
      dispatchNo: code.dispatchNo,
    };
    const seat = await this.run((transport) => transport.login(login), { key: 'login_success', level: 'success' });
    this.set({ seat, authCode: code.authCode });
    this.rejoin();
    return seat;
  }

  /**
   * After a reconnect (agent restarted, platform lost) the new seat has joined nothing: the current
   * channel and the monitored ones are joined again; a private call did not survive.
   */
  private rejoin(): void {
    const current = this.state.current;
    if (current !== null && current >= CALL_ID_BASE) this.set({ current: null });
    else if (current !== null) {
      void this.run((transport) => transport.groupCall(current))
        .then(() => this.set({ floors: this.state.floors.has(current) ? this.state.floors : this.floor(current, {}) }))
        .catch(() => this.set({ current: this.state.current === current ? null : this.state.current }));
    }
    if (this.state.monitored.length > 0) void this.monitor(this.state.monitored).catch(() => undefined);
  }

  async logout(): Promise<void> {
    this.wantSeat = false;
    await this.run((transport) => transport.logout()).catch(() => undefined);
    this.set({ seat: null, floors: new Map(), calls: new Map(), current: null, mic: 'off', monitored: [], videos: [] });
  }

  private named(cid: number, name: string | undefined): ReadonlyMap<number, string> {
    return name === undefined ? this.state.names : new Map(this.state.names).set(cid, name);
  }

  async groupCall(cid: number, name?: string): Promise<void> {
    await this.run(
      async (transport) => {
        this.needSeat();
        await transport.groupCall(cid);
      },
      { key: 'command_sent', level: 'success' },
    );
    this.set({
      current: cid,
      names: this.named(cid, name),
      floors: this.state.floors.has(cid) ? this.state.floors : this.floor(cid, {}),
    });
  }

  async privateCall(uid: number, name = String(uid)): Promise<number> {
    const cid = await this.run(
      async (transport) => {
        this.needSeat();
        return transport.privateCall(uid);
      },
      { key: 'command_sent', level: 'success' },
    );
    const calls = new Map(this.state.calls);
    calls.set(cid, { cid, peerUid: uid, peerName: name, incoming: false });
    this.set({ calls, current: cid, floors: this.floor(cid, {}), names: this.named(cid, name) });
    return cid;
  }

  /** Leaves the channel or hangs up the call (default: the current one). */
  async endCall(cid = this.state.current ?? undefined): Promise<void> {
    if (cid === undefined) return;
    await this.run(
      async (transport) => {
        this.needSeat();
        await transport.endCall(cid);
      },
      { key: 'command_sent', level: 'success' },
    );
    const calls = new Map(this.state.calls);
    calls.delete(cid);
    const floors = new Map(this.state.floors);
    if (cid >= CALL_ID_BASE || !this.state.monitored.includes(cid)) floors.delete(cid);
    this.set({ calls, floors, current: this.state.current === cid ? null : this.state.current, mic: 'off' });
  }

  /** Read again after an await: a release may have come in between. */
  private micNow(): MicState {
    return this.state.mic;
  }

  /** Push-to-talk pressed: ask for the floor of the current channel or call. */
  async applyMic(): Promise<void> {
    if (this.state.mic !== 'off') return;
    const cid = this.state.current;
    this.set({ mic: 'requesting', lastLoss: null });
    try {
      await this.run(
        async (transport) => {
          this.needSeat();
          if (cid === null) throw new TalkError('no_channel');
          await transport.applyMic(cid);
        },
        { key: 'mic_apply_success', level: 'success' },
      );
      // Released (or lost) while the request was on its way: give the floor back at once.
      if (this.micNow() !== 'requesting') {
        void this.transport?.freeMic(cid!).catch(() => undefined);
        return;
      }
      this.set({ mic: 'on', floors: this.floor(cid!, { mine: true }) });
    } catch (error) {
      if (this.micNow() === 'requesting') this.set({ mic: 'off' });
      throw error;
    }
  }

  /** Push-to-talk released. */
  async freeMic(): Promise<void> {
    const cid = this.state.current;
    const was = this.state.mic;
    if (was === 'off' || cid === null) return;
    this.set({ mic: 'off', micLevel: 0, floors: this.floor(cid, { mine: false }) });
    if (was === 'requesting') return;
    await this.run((transport) => transport.freeMic(cid), { key: 'mic_release_success', level: 'success' });
  }

  /** Listen to these channels besides the current one (replaces the set). */
  async monitor(cids: readonly number[], names?: ReadonlyMap<number, string>): Promise<void> {
    const failures = await this.run(async (transport) => {
      this.needSeat();
      return (await transport.monitor(cids)) ?? [];
    });
    // A channel the seat may not hear is not shown as listened to; the first refusal says why.
    const failed = new Set(failures.map((failure) => failure.cid));
    if (failures[0]) this.status(talkStatusOf(new TalkError(failures[0].code)));
    cids = cids.filter((cid) => !failed.has(cid));
    let floors = this.state.floors;
    for (const cid of cids)
      if (!floors.has(cid)) floors = new Map(floors).set(cid, { cid, holder: null, since: Date.now(), mine: false });
    this.set({
      monitored: [...cids],
      floors,
      names: names ? new Map([...this.state.names, ...names]) : this.state.names,
    });
  }

  async applyVideo(uid: number): Promise<void> {
    await this.run(async (transport) => {
      this.needSeat();
      await transport.applyVideo(uid);
    });
  }

  async freeVideo(uid: number): Promise<void> {
    await this.run((transport) => transport.freeVideo(uid));
  }

  /** Frames sent and decoded by browser talk (null with the agent). */
  async audioStats(): Promise<{ sent: number; decoded: number } | null> {
    const transport = this.transport;
    return transport instanceof BrowserTransport ? transport.audioStats() : null;
  }
}

export { AgentTransport, BrowserTransport };
export type { TalkCall };
