import { TalkAgentErrors, type TalkAgentCommand, type TalkAgentEvent } from '@intercom/contract';
import { DispatcherSeat, SeatError, type SeatInfo, type TerminalSocket } from '@intercom/terminal-client';
import { AgentAudio, type AgentAudioDeps } from './agentAudio.js';
import { AgentError } from './agentError.js';
import { openTerminal } from './openTerminal.js';
import { ServerWatch } from './serverWatch.js';

type Command<N extends TalkAgentCommand['cmd']> = Extract<TalkAgentCommand, { cmd: N }>;

export interface TalkSessionDeps extends AgentAudioDeps {
  allowOrigins: readonly string[];
  emit(event: TalkAgentEvent): void;
  /** The agent's log (a Login's steps, so a slow one shows where it waited). */
  log(line: string): void;
}

/**
 * One dispatcher seat carried for the consoles: the talk commands (docs/talk-agent-protocol.md)
 * handed to the DispatcherSeat, which holds the seat's rules; the agent's audio back-end; a new
 * `/terminal` socket per Login; and the watch that tells when a lost platform answers again.
 */
export class TalkSession {
  private readonly audio: AgentAudio;
  private readonly seat: DispatcherSeat;
  private readonly watch: ServerWatch;
  private socket: TerminalSocket | undefined;

  constructor(private readonly deps: TalkSessionDeps) {
    this.audio = new AgentAudio(deps);
    this.seat = new DispatcherSeat(this.audio);
    this.watch = new ServerWatch((state) => deps.emit({ event: 'server', state }));
    this.seat.on('event', (event) => {
      deps.emit(event);
      if (event.event === 'loggedOut' && event.reason === 'server_lost') this.watch.lost();
    });
  }

  /** Audio frames sent upstream (Health, tests). */
  get framesSent(): number {
    return this.audio.framesSent;
  }

  /** Answers one command; a seat's failure is an AgentError of the same code. */
  handle(command: TalkAgentCommand): Promise<Record<string, unknown>> {
    return this.run(command).catch((error: unknown) => {
      throw error instanceof SeatError ? new AgentError(error.code, error.message) : error;
    });
  }

  /** LoginInfo: the seat's state, the platform's, and the microphone's name. */
  info(): SeatInfo & { server: ServerWatch['state']; microphone: string | null } {
    return { ...this.seat.info(), server: this.watch.state, microphone: this.deps.microphone?.name ?? null };
  }

  private async run(command: TalkAgentCommand): Promise<Record<string, unknown>> {
    const seat = this.seat;
    switch (command.cmd) {
      case 'Login':
        return this.login(command);
      case 'LoginInfo':
        return { ...this.info() };
      case 'VideoList':
        return { videos: await seat.videoList() };
      case 'GroupCall':
        return seat.groupCall(command.cid);
      case 'PrivateCall':
        return { cid: await seat.privateCall(command.uid) };
      case 'EndCall':
        return { cid: await seat.endCall(command.cid) };
      case 'LogOut':
        await this.logout(true);
        return {};
      case 'ApplyMic':
        return { cid: await seat.applyMic(command.cid) };
      case 'FreeMic':
        return { cid: await seat.freeMic(command.cid) };
      case 'Monitor':
        return seat.monitor(command.cids);
      case 'ApplyVideo':
        await seat.applyVideo(command.uid);
        return { uid: command.uid };
      case 'FreeVideo':
        await seat.freeVideo(command.uid);
        return { uid: command.uid };
      case 'AnswerCall':
        return { cid: seat.answerCall(command.cid) };
    }
  }

  private async login(command: Command<'Login'>): Promise<Record<string, unknown>> {
    const proxy = new URL(command.Proxy).origin;
    // The agent dials only the platforms it trusts: a page may not point it at another host.
    if (!this.deps.allowOrigins.includes(proxy)) {
      throw new AgentError(TalkAgentErrors.badRequest, `Proxy ${proxy} is not an allowed platform`);
    }
    // The Login's reply tells the new seat; `loggedOut logout` would tell the consoles to stop asking for one.
    if (this.seat.loggedIn) await this.logout(false).catch(() => {});
    const started = performance.now();
    const since = () => `${Math.round(performance.now() - started)} ms`;
    const socket = await openTerminal(proxy);
    this.deps.log(`Login #${command.id}: /terminal of ${proxy} open after ${since()}`);
    this.socket = socket;
    try {
      const login = { authCode: command.AuthCode, dispatchNo: command.RecvUid, server: proxy };
      const reply = await this.seat.login(socket, login);
      this.deps.log(`Login #${command.id}: seat ${reply.seat.dispatchNo} logged in after ${since()}`);
      this.watch.connected(proxy);
      return reply;
    } catch (error) {
      socket.close();
      throw error;
    }
  }

  /**
   * Ends the seat on the platform. `tell` is false when the agent itself stops (its consoles lose
   * the connection and log the seat in again once it is back) or a Login replaces the seat.
   */
  private async logout(tell: boolean): Promise<void> {
    try {
      await this.seat.logout(tell);
    } finally {
      this.socket?.close();
      this.socket = undefined;
    }
  }

  async close(): Promise<void> {
    this.watch.stop();
    if (this.seat.loggedIn) await this.logout(false).catch(() => {});
    this.socket?.close();
  }
}
