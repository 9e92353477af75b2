import { CALL_ID_BASE, TalkAgentErrors, type TalkAgentCommand, type TalkAgentEvent } from '@intercom/contract';
import { AgentError } from './agentError.js';
import type { Microphone } from './audio/audioBackend.js';
import { micLevel } from './audio/micLevel.js';
import { OpusEncoder } from './audio/opusCodec.js';
import type { Playout } from './audio/playout.js';
import { ServerWatch } from './serverWatch.js';
import { SeatConnection, type ServerMessage } from './seatConnection.js';
import { decodeAudioDown, decodeVideoDown, encodeAudioUp } from '@intercom/terminal-client';

type Command<N extends TalkAgentCommand['cmd']> = Extract<TalkAgentCommand, { cmd: N }>;

/** Up frames go straight to ws: no zero fill, a Buffer. */
const allocUnsafe = (bytes: number) => Buffer.allocUnsafe(bytes);

/** A micLevel event every 5 frames: about 10 a second while the seat talks. */
const LEVEL_EVERY_FRAMES = 5;

export interface TalkSessionDeps {
  allowOrigins: readonly string[];
  microphone: Microphone | undefined;
  playout: Playout;
  emit(event: TalkAgentEvent): void;
  /** A video frame for the consoles, unchanged (server-to-viewer layout). */
  emitBinary(frame: Buffer): void;
}

interface Talking {
  cid: number;
  seq: number;
  frames: number;
  encoder: OpusEncoder;
}

/**
 * One dispatcher seat carried for the console: the talk commands mapped onto `/terminal`
 * (docs/talk-agent-protocol.md), server events forwarded, the microphone sent while the seat holds
 * a floor, what the seat hears played out.
 */
export class TalkSession {
  private connection: SeatConnection | undefined;
  private proxy: string | undefined;
  private current: number | undefined;
  private readonly joined = new Set<number>();
  private readonly calls = new Set<number>();
  private talking: Talking | undefined;
  private readonly watch: ServerWatch;
  /** Audio frames sent upstream (Health, tests). */
  framesSent = 0;

  constructor(private readonly deps: TalkSessionDeps) {
    this.watch = new ServerWatch((state) => deps.emit({ event: 'server', state }));
  }

  handle(command: TalkAgentCommand): Promise<Record<string, unknown>> {
    switch (command.cmd) {
      case 'Login':
        return this.login(command);
      case 'LoginInfo':
        return Promise.resolve(this.info());
      case 'VideoList':
        return this.request({ type: 'videoList' }).then((ack) => ({ videos: ack.videos ?? [] }));
      case 'GroupCall':
        return this.groupCall(command.cid);
      case 'PrivateCall':
        return this.privateCall(command.uid);
      case 'EndCall':
        return this.endCall(command);
      case 'LogOut':
        return this.logout();
      case 'ApplyMic':
        return this.applyMic(command);
      case 'FreeMic':
        return this.freeMic(command);
      case 'Monitor':
        return this.monitor(command.cids);
      case 'ApplyVideo':
        return this.request({ type: 'videoApply', uid: command.uid }).then(() => ({ uid: command.uid }));
      case 'FreeVideo':
        return this.request({ type: 'videoFree', uid: command.uid }).then(() => ({ uid: command.uid }));
      default:
        return Promise.reject(new Error('unreachable'));
    }
  }

  info(): Record<string, unknown> {
    return {
      loggedIn: this.connection !== undefined,
      seat: this.connection?.seat ?? null,
      server: this.watch.state,
      cid: this.current ?? null,
      monitor: [...this.joined].sort((a, b) => a - b),
      calls: [...this.calls],
      talking: this.talking?.cid ?? null,
      microphone: this.deps.microphone?.name ?? null,
    };
  }

  private seat(): SeatConnection {
    if (!this.connection) throw new AgentError(TalkAgentErrors.notLoggedIn, 'the talk account is not logged in');
    return this.connection;
  }

  private request(message: Record<string, unknown>): Promise<ServerMessage> {
    try {
      return this.seat().request(message);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private async login(command: Command<'Login'>): Promise<Record<string, unknown>> {
    const proxy = new URL(command.Proxy).origin;
    // The agent dials only the platforms it trusts: a page may not point it at another host.
    if (!this.deps.allowOrigins.includes(proxy)) {
      throw new AgentError(TalkAgentErrors.badRequest, `Proxy ${proxy} is not an allowed platform`);
    }
    // The Login's reply tells the new seat; `loggedOut logout` would tell the consoles to stop asking for one.
    if (this.connection) await this.logout(false).catch(() => {});
    const connection = await SeatConnection.login(proxy, command.AuthCode);
    if (connection.seat?.dispatchNo !== command.RecvUid) {
      await connection.request({ type: 'logout' }).catch(() => {});
      connection.close();
      throw new AgentError(
        TalkAgentErrors.accountMismatch,
        `the server granted seat ${connection.seat?.dispatchNo ?? '?'}, not ${command.RecvUid}`,
      );
    }
    const restore = this.proxy === proxy ? [...this.joined] : [];
    this.reset();
    this.proxy = proxy;
    this.connection = connection;
    connection.on('message', (message) => this.onServerMessage(message));
    connection.on('frame', (frame) => this.onFrame(frame));
    connection.on('close', (code, reason) => this.onClose(connection, code, reason));
    this.watch.connected(proxy);
    // After the server was lost, a new Login brings back the channels the seat listened to.
    for (const cid of restore) {
      await connection
        .request({ type: 'join', cid })
        .then(() => this.joined.add(cid))
        .catch(() => {});
    }
    return { seat: connection.seat, monitor: [...this.joined] };
  }

  private reset(): void {
    this.stopMic();
    this.current = undefined;
    this.joined.clear();
    this.calls.clear();
  }

  /**
   * Ends the seat on the platform. `tell` is false when the agent itself stops (its consoles lose
   * the connection and log the seat in again once it is back) or a Login replaces the seat: a
   * `loggedOut logout` tells consoles the dispatcher logged out on purpose and not to log in again.
   */
  private async logout(tell = true): Promise<Record<string, unknown>> {
    const connection = this.seat();
    this.connection = undefined;
    this.stopMic();
    await connection.request({ type: 'logout' }).catch(() => {});
    connection.close();
    this.reset();
    if (tell) this.deps.emit({ event: 'loggedOut', reason: 'logout' });
    return {};
  }

  private onClose(connection: SeatConnection, code: number, reason: string): void {
    if (this.connection !== connection) return; // logged out or replaced by a new Login
    this.connection = undefined;
    this.stopMic();
    this.calls.clear();
    this.current = undefined;
    if (reason === 'replaced') this.deps.emit({ event: 'loggedOut', reason: 'replaced' });
    else if (code === 4002) this.deps.emit({ event: 'loggedOut', reason: 'session_end' });
    else {
      this.deps.emit({ event: 'loggedOut', reason: 'server_lost' });
      this.watch.lost();
    }
  }

  private onServerMessage(m: ServerMessage): void {
    const n = (key: string) => Number(m[key]);
    switch (m.type) {
      case 'floorTaken':
        this.deps.emit({
          event: 'floorTaken',
          cid: n('cid'),
          uid: n('uid'),
          name: String(m.name),
          priority: n('priority'),
        });
        break;
      case 'floorIdle':
        this.deps.emit({ event: 'floorIdle', cid: n('cid') });
        break;
      case 'floorRevoked':
        if (this.talking?.cid === n('cid')) this.stopMic();
        this.deps.emit({ event: 'floorRevoked', cid: n('cid'), reason: String(m.reason) });
        break;
      case 'callStart':
        this.calls.add(n('cid'));
        this.deps.emit({ event: 'callStart', cid: n('cid'), from: n('from'), name: String(m.name ?? '') });
        break;
      case 'callEnd':
        this.dropCall(n('cid'));
        this.deps.emit({ event: 'callEnd', cid: n('cid') });
        break;
      case 'videoOnline':
        this.deps.emit({
          event: 'videoOnline',
          video: { uid: n('uid'), name: String(m.name ?? ''), codecs: (m.codecs as string[] | undefined) ?? [] },
        });
        break;
      case 'videoOffline':
        this.deps.emit({ event: 'videoOffline', uid: n('uid') });
        break;
    }
  }

  private onFrame(frame: Buffer): void {
    const heard = decodeAudioDown(frame);
    if (heard) this.deps.playout.push(heard.cid, heard.speaker, heard.seq, heard.opus);
    // Video goes to the consoles as it came (the same server-to-viewer layout), once it reads as one.
    else if (decodeVideoDown(frame)) this.deps.emitBinary(frame);
  }

  private dropCall(cid: number): void {
    this.calls.delete(cid);
    if (this.talking?.cid === cid) this.stopMic();
    if (this.current === cid) this.current = undefined;
  }

  private async groupCall(cid: number): Promise<Record<string, unknown>> {
    const ack = await this.request({ type: 'join', cid });
    this.joined.add(cid);
    this.current = cid;
    return { cid, priority: ack.priority };
  }

  private async privateCall(uid: number): Promise<Record<string, unknown>> {
    const ack = await this.request({ type: 'call', uid });
    const cid = Number(ack.cid);
    this.calls.add(cid);
    this.current = cid;
    return { cid };
  }

  private async endCall(command: Command<'EndCall'>): Promise<Record<string, unknown>> {
    this.seat();
    const cid = command.cid ?? this.current;
    if (cid === undefined) throw new AgentError(TalkAgentErrors.badRequest, 'no current channel or call');
    if (this.talking?.cid === cid) this.stopMic();
    if (cid >= CALL_ID_BASE) {
      await this.request({ type: 'hangup', cid });
      this.dropCall(cid);
    } else {
      await this.request({ type: 'leave', cid });
      this.joined.delete(cid);
      if (this.current === cid) this.current = undefined;
    }
    return { cid };
  }

  private targetOf(cid: number | undefined): number {
    this.seat();
    const target = cid ?? this.current;
    if (target === undefined)
      throw new AgentError(TalkAgentErrors.badRequest, 'no current channel or call: GroupCall first');
    return target;
  }

  private async applyMic(command: Command<'ApplyMic'>): Promise<Record<string, unknown>> {
    const cid = this.targetOf(command.cid);
    const microphone = this.deps.microphone;
    if (!microphone)
      throw new AgentError(
        TalkAgentErrors.noMicrophone,
        'no microphone: start the agent with sox or ffmpeg on the PATH, or --mic-file',
      );
    await this.request({ type: 'floorRequest', cid });
    this.startMic(microphone, cid);
    return { cid };
  }

  private async freeMic(command: Command<'FreeMic'>): Promise<Record<string, unknown>> {
    const cid = this.targetOf(command.cid ?? this.talking?.cid);
    if (this.talking?.cid === cid) this.stopMic();
    await this.request({ type: 'floorRelease', cid });
    return { cid };
  }

  private startMic(microphone: Microphone, cid: number): void {
    this.stopMic();
    const talking: Talking = { cid, seq: 0, frames: 0, encoder: new OpusEncoder() };
    this.talking = talking;
    microphone.start((pcm) => {
      if (this.talking !== talking) return;
      this.connection?.sendFrame(
        encodeAudioUp({ cid, seq: talking.seq, opus: talking.encoder.encode(pcm) }, allocUnsafe),
      );
      talking.seq = (talking.seq + 1) & 0xffff;
      talking.frames += 1;
      this.framesSent += 1;
      if (talking.frames % LEVEL_EVERY_FRAMES === 1) this.deps.emit({ event: 'micLevel', level: micLevel(pcm) });
    });
  }

  private stopMic(): void {
    if (!this.talking) return;
    this.deps.microphone?.stop();
    this.talking.encoder.delete();
    this.talking = undefined;
  }

  private async monitor(cids: number[]): Promise<Record<string, unknown>> {
    this.seat();
    const wanted = new Set(cids);
    const failed: { cid: number; code: string }[] = [];
    for (const cid of wanted) {
      if (this.joined.has(cid)) continue;
      try {
        await this.request({ type: 'join', cid });
        this.joined.add(cid);
      } catch (error) {
        failed.push({ cid, code: error instanceof AgentError ? error.code : 'internal' });
      }
    }
    // The current channel stays joined: it is where ApplyMic talks.
    for (const cid of [...this.joined]) {
      if (wanted.has(cid) || cid === this.current) continue;
      await this.request({ type: 'leave', cid }).catch(() => {});
      this.joined.delete(cid);
    }
    return { cids: [...this.joined].sort((a, b) => a - b), failed };
  }

  async close(): Promise<void> {
    this.watch.stop();
    if (this.connection) await this.logout(false).catch(() => {});
  }
}
