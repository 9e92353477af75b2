import {
  CALL_ID_BASE,
  TalkAgentErrors,
  TalkErrors,
  type TalkAgentEvent,
  type TalkSeat,
  type TalkVideoSource,
  type TerminalServerMessage,
} from '@intercom/contract';
import { SeatError, seatErrorOf } from './dispatcherSeatError.js';
import { seatEndReasonOf, seatEventOf } from './dispatcherSeatEvents.js';
import type { SeatAudio, SeatInfo, SeatLogin } from './dispatcherSeatTypes.js';
import { Emitter } from './emitter.js';
import { decodeAudioDown, decodeVideoDown, encodeAudioUp } from './frames.js';
import type { TerminalAck, TerminalRequest, TerminalSocket } from './terminalSocket.js';

export type DispatcherSeatEvents = { event: [event: TalkAgentEvent] };

/**
 * One dispatcher seat on `/terminal` (docs/terminal-protocol.md), its rules in one place for the
 * talk agent and the browser: the current channel, the joined and monitored channels, private
 * calls, the microphone while the seat holds a floor, video, and the server's pushes as the talk
 * agent protocol's events (docs/talk-agent-protocol.md). The transport owns the socket: it hands
 * one over at login and closes or reconnects it; the seat only speaks on it while logged in.
 */
export class DispatcherSeat extends Emitter<DispatcherSeatEvents> {
  private socket: TerminalSocket | undefined;
  private unbind: (() => void) | undefined;
  private granted: TalkSeat | undefined;
  private server: string | undefined;
  private current: number | undefined;
  /** Channels the seat is in on the server: the current one, the monitored ones, and former current ones. */
  private readonly joined = new Set<number>();
  /** Joined channels the last monitor() asked for: ending a call on one keeps listening to it. */
  private readonly monitored = new Set<number>();
  private readonly calls = new Set<number>();
  /** The emergency calls among `calls`: offered to the seat, which answerCall makes current. */
  private readonly emergency = new Set<number>();
  private talking: { cid: number; seq: number } | undefined;

  constructor(private readonly audio: SeatAudio) {
    super();
  }

  get loggedIn(): boolean {
    return this.socket !== undefined;
  }

  info(): SeatInfo {
    return {
      loggedIn: this.loggedIn,
      seat: this.granted ?? null,
      cid: this.current ?? null,
      monitor: this.joinedList(),
      calls: [...this.calls],
      emergency: [...this.emergency],
      talking: this.talking?.cid ?? null,
    };
  }

  /**
   * Logs in on `socket` (open) with an AuthCode. A seat of another number is logged out again and
   * refused (`account_mismatch`). After the platform was lost, a login to the same `server` joins
   * again the channels the seat was in; the reply's `monitor` lists them.
   */
  async login(socket: TerminalSocket, login: SeatLogin): Promise<{ seat: TalkSeat; monitor: number[] }> {
    if (this.socket) await this.logout(false);
    // TerminalSocket.login, not a plain request: it starts the heartbeats that keep the seat.
    const ack = await socket.login({ authCode: login.authCode }).catch((error: unknown) => {
      throw seatErrorOf(error);
    });
    const seat = ack.seat as TalkSeat | undefined;
    if (!seat || seat.dispatchNo !== login.dispatchNo) {
      await socket.request({ type: 'logout' }).catch(() => undefined);
      const granted = seat?.dispatchNo ?? '?';
      throw new SeatError(
        TalkAgentErrors.accountMismatch,
        `the server granted seat ${granted}, not ${login.dispatchNo}`,
      );
    }
    // Only a lost seat keeps its channels (see `closed`); another platform's mean nothing here.
    const restore = login.server === this.server ? [...this.joined] : [];
    const monitored = new Set(restore.filter((cid) => this.monitored.has(cid)));
    this.joined.clear();
    this.monitored.clear();
    this.server = login.server;
    this.granted = seat;
    this.bind(socket);
    for (const cid of restore) {
      await this.request({ type: 'join', cid })
        .then(() => this.joined.add(cid))
        .catch(() => undefined);
    }
    for (const cid of monitored) if (this.joined.has(cid)) this.monitored.add(cid);
    return { seat, monitor: this.joinedList() };
  }

  /**
   * Ends the seat on the platform (the server then closes the socket). `tell` false: no `loggedOut
   * logout` event, for a seat replaced by a new login or an agent that stops (the consoles log in
   * again by themselves; `logout` tells them the dispatcher left on purpose).
   */
  async logout(tell = true): Promise<void> {
    const socket = this.need();
    this.detach();
    this.joined.clear();
    this.monitored.clear();
    await socket.request({ type: 'logout' }).catch(() => undefined);
    if (tell) this.emit('event', { event: 'loggedOut', reason: 'logout' });
  }

  /** Joins `cid` and makes it the current channel. */
  async groupCall(cid: number): Promise<{ cid: number; priority: number }> {
    const ack = await this.request({ type: 'join', cid });
    this.joined.add(cid);
    this.current = cid;
    return { cid, priority: ack.priority as number };
  }

  /** Calls a user; the call becomes the current one. Resolves with its cid. */
  async privateCall(uid: number): Promise<number> {
    const ack = await this.request({ type: 'call', uid });
    const cid = Number(ack.cid);
    this.calls.add(cid);
    this.current = cid;
    return cid;
  }

  /**
   * Takes an emergency call the seat was offered as the current one, so applyMic talks in it. The
   * server needs no word: every seat offered the call already hears it. Unknown cid: `not_found`;
   * a call that is not an emergency: `bad_request`.
   */
  answerCall(cid: number): number {
    this.need();
    if (!this.calls.has(cid)) throw new SeatError(TalkErrors.notFound, `no call ${cid}`);
    if (!this.emergency.has(cid))
      throw new SeatError(TalkAgentErrors.badRequest, `call ${cid} is not an emergency call`);
    this.current = cid;
    return cid;
  }

  /**
   * Ends a call (default: the current one). A private call is hung up. A channel is left, unless it
   * is monitored: then the seat keeps listening and it is only no longer the current one (and a
   * floor the seat held there is released). Resolves with the cid.
   */
  async endCall(cid = this.current): Promise<number> {
    this.need();
    if (cid === undefined) throw new SeatError(TalkAgentErrors.badRequest, 'no current channel or call');
    const wasTalking = this.talking?.cid === cid;
    if (wasTalking) this.stopMic();
    if (cid >= CALL_ID_BASE) {
      await this.request({ type: 'hangup', cid });
      this.dropCall(cid);
    } else if (this.monitored.has(cid)) {
      if (wasTalking) await this.request({ type: 'floorRelease', cid }).catch(() => undefined);
    } else {
      await this.request({ type: 'leave', cid });
      this.joined.delete(cid);
    }
    if (this.current === cid) this.current = undefined;
    return cid;
  }

  /** Asks for the floor of `cid` (default: the current one) and, once granted, sends the microphone. */
  async applyMic(cid?: number): Promise<number> {
    const target = this.target(cid);
    await this.audio.openMic();
    await this.request({ type: 'floorRequest', cid: target });
    const socket = this.need();
    this.stopMic();
    const talk = { cid: target, seq: 0 };
    this.talking = talk;
    try {
      await this.audio.startSending(target, {
        packet: (opus) => {
          if (this.talking !== talk) return;
          socket.sendFrame(encodeAudioUp({ cid: target, seq: talk.seq, opus }));
          talk.seq = (talk.seq + 1) & 0xffff;
        },
        level: (level) => {
          if (this.talking === talk) this.emit('event', { event: 'micLevel', level });
        },
      });
    } catch (error) {
      if (this.talking === talk) this.stopMic();
      await this.request({ type: 'floorRelease', cid: target }).catch(() => undefined);
      throw error;
    }
    return target;
  }

  /** Stops the microphone and releases the floor (default: the one the seat talks in). */
  async freeMic(cid?: number): Promise<number> {
    const target = this.target(cid ?? this.talking?.cid);
    if (this.talking?.cid === target) await this.finishMic();
    await this.request({ type: 'floorRelease', cid: target });
    return target;
  }

  /**
   * The channels to listen to, replacing the previous set: the missing ones are joined, joined ones
   * not in the set are left, except the current channel (where the seat talks).
   */
  async monitor(cids: readonly number[]): Promise<{ cids: number[]; failed: { cid: number; code: string }[] }> {
    this.need();
    const wanted = new Set(cids);
    const failed: { cid: number; code: string }[] = [];
    for (const cid of wanted) {
      if (this.joined.has(cid)) continue;
      try {
        await this.request({ type: 'join', cid });
        this.joined.add(cid);
      } catch (error) {
        failed.push({ cid, code: error instanceof SeatError ? error.code : 'internal' });
      }
    }
    for (const cid of [...this.joined]) {
      if (wanted.has(cid) || cid === this.current) continue;
      if (this.talking?.cid === cid) this.stopMic();
      await this.request({ type: 'leave', cid }).catch(() => undefined);
      this.joined.delete(cid);
    }
    this.monitored.clear();
    for (const cid of wanted) if (this.joined.has(cid)) this.monitored.add(cid);
    return { cids: this.joinedList(), failed };
  }

  async videoList(): Promise<TalkVideoSource[]> {
    const ack = await this.request({ type: 'videoList' });
    return (ack.videos as TalkVideoSource[] | undefined) ?? [];
  }

  /** Starts a terminal's video: its frames go to the audio back-end's `video`. */
  async applyVideo(uid: number): Promise<void> {
    await this.request({ type: 'videoApply', uid });
  }

  async freeVideo(uid: number): Promise<void> {
    await this.request({ type: 'videoFree', uid });
  }

  private need(): TerminalSocket {
    if (!this.socket) throw new SeatError(TalkAgentErrors.notLoggedIn, 'the talk account is not logged in');
    return this.socket;
  }

  private target(cid: number | undefined): number {
    this.need();
    const target = cid ?? this.current;
    if (target === undefined) throw new SeatError(TalkAgentErrors.badRequest, 'no current channel or call');
    return target;
  }

  /** `socket.request`, failing with a SeatError. */
  private async request(message: TerminalRequest): Promise<TerminalAck> {
    try {
      return await this.need().request(message);
    } catch (error) {
      throw seatErrorOf(error);
    }
  }

  private joinedList(): number[] {
    return [...this.joined].sort((a, b) => a - b);
  }

  private bind(socket: TerminalSocket): void {
    this.socket = socket;
    const off = [
      socket.on('push', (message) => this.pushed(message)),
      socket.on('frame', (bytes) => this.frame(bytes)),
      socket.on('close', (code) => this.closed(code)),
    ];
    this.unbind = () => off.forEach((stop) => stop());
  }

  /** Forgets the socket and what lives only as long as it: the floor, the calls, the current one. */
  private detach(): void {
    this.unbind?.();
    this.unbind = undefined;
    this.socket = undefined;
    this.granted = undefined;
    this.stopMic();
    this.calls.clear();
    this.emergency.clear();
    this.current = undefined;
  }

  private closed(code: number): void {
    const reason = seatEndReasonOf(code);
    this.detach();
    // A lost platform keeps the channels for the next login to it; an ended seat has none.
    if (reason !== 'server_lost') {
      this.joined.clear();
      this.monitored.clear();
    }
    this.emit('event', { event: 'loggedOut', reason });
  }

  /** The pushes the seat keeps state of; seatEventOf, whose switch names every push, passes them on. */
  private pushed(message: TerminalServerMessage): void {
    if (message.type === 'floorIdle' || message.type === 'floorRevoked') {
      if (this.talking?.cid === message.cid) this.stopMic();
    } else if (message.type === 'callStart') {
      this.calls.add(message.cid);
      if ('emergency' in message) this.emergency.add(message.cid);
    } else if (message.type === 'callEnd') {
      this.dropCall(message.cid);
    } else if (message.type === 'channelLeft') {
      // Removed from the channel: it is heard no more, whatever the seat wanted.
      this.joined.delete(message.cid);
      this.monitored.delete(message.cid);
      this.dropCall(message.cid);
    }
    const event = seatEventOf(message);
    if (event) this.emit('event', event);
  }

  private dropCall(cid: number): void {
    this.calls.delete(cid);
    this.emergency.delete(cid);
    if (this.talking?.cid === cid) this.stopMic();
    if (this.current === cid) this.current = undefined;
  }

  private frame(bytes: Uint8Array): void {
    const heard = decodeAudioDown(bytes);
    if (heard) return this.audio.play(heard);
    const video = decodeVideoDown(bytes);
    if (video) this.audio.video(video, bytes);
  }

  /**
   * The end of a talk the dispatcher chose: what the microphone captured up to now still goes out
   * (the last word is not cut), then the seat stops sending. A revoked floor stops at once instead.
   */
  private async finishMic(): Promise<void> {
    const talk = this.talking;
    if (!talk) return;
    await this.audio.stopSending();
    if (this.talking === talk) this.stopMic();
  }

  private stopMic(): void {
    if (!this.talking) return;
    this.talking = undefined;
    // At once: what the back-end still hands over is not sent (the callback checks `talking`).
    void Promise.resolve(this.audio.stopSending()).catch(() => undefined);
  }
}
