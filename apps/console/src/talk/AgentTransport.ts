import {
  TALK_RETRY_MS,
  TalkAgentErrors,
  TalkAgentPorts,
  type MonitorAgentEvent,
  type TalkAgentEvent,
  type TalkAgentReply,
  type TalkSeat,
} from '@intercom/contract';
import { decodeVideoDown } from '@intercom/terminal-client';
import { TalkError, type MonitorFailure, type SeatLogin, type TalkTransport, type TransportSink } from './talkTypes';
import { PendingReplies } from './PendingReplies';

/** One of the agent's two WebSocket services, reconnected every TALK_RETRY_MS while it is down. */
class AgentSocket {
  private socket: WebSocket | null = null;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;
  private readonly pending = new PendingReplies();
  private stopped = true;

  constructor(
    private readonly url: string,
    private readonly handlers: {
      open: () => void;
      close: () => void;
      text: (message: Record<string, unknown>) => void;
      binary?: (data: ArrayBuffer) => void;
    },
  ) {}

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.pending.failAll(TalkAgentErrors.serverUnreachable);
  }

  private connect(): void {
    if (this.stopped) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => this.handlers.open();
    socket.onmessage = (message: MessageEvent<string | ArrayBuffer>) => {
      if (typeof message.data !== 'string') {
        this.handlers.binary?.(message.data);
        return;
      }
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(message.data) as Record<string, unknown>;
      } catch {
        return;
      }
      if (typeof parsed.id === 'number' && typeof parsed.ok === 'boolean') this.settle(parsed);
      else this.handlers.text(parsed);
    };
    // A refused connection fires error then close; close alone decides.
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.pending.failAll(TalkAgentErrors.serverUnreachable);
      this.handlers.close();
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.connect(), TALK_RETRY_MS);
  }

  private settle(reply: Record<string, unknown>): void {
    const answer = reply as TalkAgentReply;
    this.pending.settle(answer.id, reply, answer.ok ? undefined : answer);
  }

  /** Sends `{cmd, id, ...args}` and resolves with the reply; rejects with the reply's code. */
  command(cmd: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new TalkError(TalkAgentErrors.serverUnreachable));
    }
    const id = this.nextId++;
    return this.pending.wait(id, () => socket.send(JSON.stringify({ cmd, id, ...args })));
  }
}

export interface AgentTransportOptions {
  host?: string;
  talkPort?: number;
  monitorPort?: number;
}

/**
 * The local talk agent (apps/talk-agent) carries the seat's audio: commands of
 * packages/contract/src/talkAgent.ts on ws://127.0.0.1:12002, self-update news on 12001. Both are
 * retried every 5 s while down (SPEC.md 4), so an agent started (or restarted) later is found.
 */
export class AgentTransport implements TalkTransport {
  readonly mode = 'agent' as const;
  private sink: TransportSink | null = null;
  private readonly talk: AgentSocket;
  private readonly monitorSocket: AgentSocket;

  constructor(options: AgentTransportOptions = {}) {
    const host = options.host ?? '127.0.0.1';
    this.talk = new AgentSocket(`ws://${host}:${options.talkPort ?? TalkAgentPorts.talk}`, {
      open: () => this.sink?.connection('connected'),
      close: () => this.sink?.connection('disconnected'),
      text: (message) => {
        if (typeof message.event === 'string') this.sink?.event(message as unknown as TalkAgentEvent);
      },
      binary: (data) => {
        const frame = decodeVideoDown(new Uint8Array(data));
        if (frame) this.sink?.video(frame);
      },
    });
    this.monitorSocket = new AgentSocket(`ws://${host}:${options.monitorPort ?? TalkAgentPorts.monitor}`, {
      open: () => this.sink?.monitorState?.('connected'),
      close: () => this.sink?.monitorState?.('disconnected'),
      text: (message) => {
        const event = message as unknown as MonitorAgentEvent;
        if (event.event === 'update') this.sink?.update?.(event.state);
      },
    });
  }

  start(sink: TransportSink): void {
    this.sink = sink;
    sink.connection('connecting');
    this.talk.start();
    this.monitorSocket.start();
  }

  stop(): void {
    this.talk.stop();
    this.monitorSocket.stop();
    this.sink = null;
  }

  async login(login: SeatLogin): Promise<TalkSeat> {
    const reply = await this.talk.command('Login', {
      Proxy: login.proxy,
      PartyID: login.partyId,
      Uid: login.account,
      AuthCode: login.authCode,
      RecvUid: login.dispatchNo,
    });
    // SPEC.md 4: login acknowledged, then LoginInfo, then the video list.
    const info = await this.talk.command('LoginInfo').catch(() => reply);
    const seat = (info.seat ?? reply.seat) as TalkSeat | undefined;
    const videos = await this.talk.command('VideoList').catch(() => ({ videos: [] }));
    for (const video of (videos.videos ?? []) as TalkVideoSourceLike[])
      this.sink?.event({ event: 'videoOnline', video });
    return seat ?? { dispatchNo: login.dispatchNo, A_ID: 0, E_ID: login.partyId, name: login.account, priority: 0 };
  }

  async logout(): Promise<void> {
    await this.talk.command('LogOut');
  }

  async groupCall(cid: number): Promise<void> {
    await this.talk.command('GroupCall', { cid });
  }

  async privateCall(uid: number): Promise<number> {
    const reply = await this.talk.command('PrivateCall', { uid });
    return Number(reply.cid);
  }

  async endCall(cid: number): Promise<void> {
    await this.talk.command('EndCall', { cid });
  }

  async answerCall(cid: number): Promise<void> {
    await this.talk.command('AnswerCall', { cid });
  }

  async applyMic(cid: number): Promise<void> {
    await this.talk.command('ApplyMic', { cid });
  }

  async freeMic(cid: number): Promise<void> {
    await this.talk.command('FreeMic', { cid });
  }

  /** The reply lists the channels joined and each that failed (docs/talk-agent-protocol.md). */
  async monitor(cids: readonly number[]): Promise<MonitorFailure[]> {
    const reply = await this.talk.command('Monitor', { cids });
    return Array.isArray(reply.failed) ? (reply.failed as MonitorFailure[]) : [];
  }

  async applyVideo(uid: number): Promise<void> {
    await this.talk.command('ApplyVideo', { uid });
  }

  async freeVideo(uid: number): Promise<void> {
    await this.talk.command('FreeVideo', { uid });
  }
}

type TalkVideoSourceLike = Extract<TalkAgentEvent, { event: 'videoOnline' }>['video'];
