import { TalkAgentPorts, type MonitorAgentEvent, type TalkAgentEvent, type TalkSeat } from '@intercom/contract';
import { decodeVideoDown } from '@intercom/terminal-client';
import { AgentSocket, windowWake, type WakeSource } from './AgentSocket';
import type { MonitorFailure, SeatLogin, TalkTransport, TransportSink } from './talkTypes';

export interface AgentTransportOptions {
  host?: string;
  talkPort?: number;
  monitorPort?: number;
  /** When to probe at once (default: the window gains focus or the tab shows). */
  wake?: WakeSource;
  /** Jitter of the probe schedule (tests fix it). */
  random?: () => number;
}

/**
 * The local talk agent (apps/talk-agent) carries the seat's audio: commands of
 * packages/contract/src/talkAgent.ts on ws://127.0.0.1:12002, self-update news on 12001. The talk
 * service is probed while down on the ProbeSchedule (every 5 s for a minute after a loss, SPEC.md 4;
 * growing to once a minute for an agent never seen, and at once when the window gains focus), so an
 * agent started (or restarted) later is found without a refused connection logged every few
 * seconds. The monitor service is only looked for once the talk service answered.
 */
export class AgentTransport implements TalkTransport {
  readonly mode = 'agent' as const;
  private sink: TransportSink | null = null;
  private readonly talk: AgentSocket<TalkAgentEvent>;
  private readonly monitorSocket: AgentSocket<MonitorAgentEvent>;

  constructor(options: AgentTransportOptions = {}) {
    const host = options.host ?? '127.0.0.1';
    const wake = options.wake ?? windowWake;
    const random = options.random ?? Math.random;
    this.talk = new AgentSocket<TalkAgentEvent>(
      `ws://${host}:${options.talkPort ?? TalkAgentPorts.talk}`,
      {
        open: () => {
          if (this.sink && !this.monitorSocket.started) this.monitorSocket.start();
          this.sink?.connection('connected');
        },
        close: () => this.sink?.connection('disconnected'),
        text: (event) => this.sink?.event(event),
        binary: (data) => {
          const frame = decodeVideoDown(data);
          if (frame) this.sink?.video(frame);
        },
      },
      wake,
      random,
    );
    this.monitorSocket = new AgentSocket<MonitorAgentEvent>(
      `ws://${host}:${options.monitorPort ?? TalkAgentPorts.monitor}`,
      {
        open: () => this.sink?.monitorState?.('connected'),
        close: () => this.sink?.monitorState?.('disconnected'),
        text: (event) => {
          if (event.event === 'update') this.sink?.update?.(event.state);
        },
      },
      wake,
      random,
    );
  }

  start(sink: TransportSink): void {
    this.sink = sink;
    sink.connection('connecting');
    this.talk.start();
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
