import { CALL_ID_BASE, TalkErrors, TalkLimits, TerminalErrors } from '@intercom/contract';
import { decodeAudioDown, decodeAudioUp, encodeAudioDown } from '@intercom/terminal-client';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { RefusingPeer } from '../core/refusalEpisodes.js';
import { TokenBucket } from '../core/tokenBucket.js';
import { inScope } from '../tenancy/scope.js';
import {
  holds,
  stepFloor,
  type FloorEffect,
  type FloorEvent,
  type FloorLimits,
  type FloorState,
} from './floorMachine.js';
import { DEFAULT_LEASE_MS, type CallSignal, type FloorNote, type SharedFloors } from './sharedFloors.js';
import { SharedRooms } from './sharedRooms.js';
import { RemoteCalls, reaches, type CallSettings } from './remoteCalls.js';
import { channelInfo, memberPriority, talkSettings } from './talkRepository.js';
import { floorLimits, TalkRoom, type BurstRecorder } from './talkRoom.js';
import type { TalkPeer } from './talkPeer.js';

/** Down frames are built once per talker frame and written over at once: no zero fill, a Buffer for ws. */
const allocUnsafe = (bytes: number) => Buffer.allocUnsafe(bytes);

/** Timings and limits of the talk service; tests shorten them. */
export interface TalkOptions {
  /** How often floors are checked for maximum talk time, silence and the pre-emption grace. */
  tickMs: number;
  /** Overrides of the per-enterprise floor limits (tests). */
  floor: Partial<FloorLimits>;
  framesPerSecond: number;
  framesBurst: number;
  floodCutAfter: number;
  /** With REDIS_URL: a floor whose instance stops renewing it is idle after this long. */
  leaseMs: number;
  /** With REDIS_URL: how long a call to a user connected to no instance here waits for an answer. */
  callAnswerMs: number;
}

export const DEFAULT_TALK_OPTIONS: TalkOptions = {
  tickMs: 50,
  floor: {},
  framesPerSecond: TalkLimits.framesPerSecond,
  framesBurst: TalkLimits.framesBurst,
  floodCutAfter: TalkLimits.floodCutAfter,
  leaseMs: DEFAULT_LEASE_MS,
  callAnswerMs: 1_000,
};

/** Per connection: the rooms it hears and its audio rate limit. */
interface PeerState {
  rooms: Set<TalkRoom>;
  /** A terminal's current channel (a seat may hear many). */
  channel: TalkRoom | null;
  frames: TokenBucket;
  overInRow: number;
  /** Floors it holds now (GpsRecord.talking while above 0). */
  holding: number;
}

/** Counters for tests, metrics and the benchmark. */
export interface TalkCounters {
  relayed: number;
  notHolder: number;
  badFrames: number;
  rateLimited: number;
  /** Frames from other instances refused because a newer holder has the floor (fencing token). */
  fenced: number;
}

/**
 * Channels, floors, private calls and the audio relay of one server instance. Floor transitions
 * live in floorMachine.ts; this class applies their effects (acks, pushes, talking, recordings).
 */
export class TalkService {
  private readonly rooms = new Map<number, TalkRoom>();
  private readonly peers = new Map<TalkPeer, PeerState>();
  /** Terminals by U_ID, to place private calls. */
  private readonly users = new Map<number, TalkPeer>();
  private readonly active = new Set<TalkRoom>();
  private nextCall = 0;
  private readonly timer: NodeJS.Timeout;
  readonly counters: TalkCounters = { relayed: 0, notHolder: 0, badFrames: 0, rateLimited: 0, fenced: 0 };
  recorder: BurstRecorder = () => null;
  /**
   * Reads a dispatcher seat's session again before it joins or calls (its scope is read at use, never
   * frozen at login); false when the session ended and the seat is closing. Unset: the scope as it is.
   */
  seatScope: (peer: TalkPeer) => Promise<boolean> = async () => true;
  /** With REDIS_URL: channel floors and their audio shared with the other instances. */
  private shared: SharedRooms | null = null;
  /** With REDIS_URL: private calls to users connected to other instances. */
  private calls: RemoteCalls | null = null;

  constructor(
    private readonly deps: AppDeps,
    readonly options: TalkOptions,
    readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => this.tick(Date.now()), options.tickMs);
    this.timer.unref();
  }

  /** Shares channel floors and audio with the other instances (REDIS_URL). */
  share(floors: SharedFloors): void {
    this.shared = new SharedRooms(
      floors,
      (room, state, effects, now) => this.settle(room, state, effects, now),
      this.log,
    );
    this.calls = new RemoteCalls(floors, this.options.callAnswerMs, {
      user: (uid) => this.users.get(uid),
      connected: (peer) => this.peers.has(peer),
      room: (cid) => this.rooms.get(cid),
      openCall: (cid, E_ID, settings, parties) => this.callRoom(cid, E_ID, settings, parties),
      endCall: (room) => this.endCall(room, undefined, false),
    });
  }

  get sharedFloors(): SharedFloors | null {
    return this.shared?.floors ?? null;
  }

  attach(peer: TalkPeer): void {
    const now = Date.now();
    this.peers.set(peer, {
      rooms: new Set(),
      channel: null,
      frames: new TokenBucket(this.options.framesPerSecond, this.options.framesBurst, now),
      overInRow: 0,
      holding: 0,
    });
    if (peer.user) this.users.set(peer.user.U_ID, peer);
  }

  /** Disconnect (or freeze, or replacement): releases its floors, ends its calls, leaves its channels. */
  detach(peer: TalkPeer): void {
    const state = this.peers.get(peer);
    if (!state) return;
    for (const room of [...state.rooms]) {
      if (room.kind === 'private') this.endCall(room);
      else this.leaveRoom(peer, room);
    }
    this.peers.delete(peer);
    if (peer.user && this.users.get(peer.user.U_ID) === peer) this.users.delete(peer.user.U_ID);
    peer.outbox.close();
  }

  get roomCount(): number {
    return this.rooms.size;
  }

  async join(peer: TalkPeer, cid: number, seq: number): Promise<void> {
    if (peer.seat && !(await this.seatScope(peer))) return;
    const channel = cid < CALL_ID_BASE ? await channelInfo(this.deps.db, cid) : undefined;
    let priority: number | undefined;
    if (peer.seat) {
      if (channel && inScope(peer.seat.scope, channel.E_ID)) priority = peer.seat.priority;
    } else if (peer.user && channel?.E_ID === peer.E_ID) {
      priority = await memberPriority(this.deps.db, cid, peer.user);
    }
    if (!channel || priority === undefined)
      return peer.error(seq, TalkErrors.notMember, 'not a member of this channel');
    const room = this.rooms.get(cid) ?? (await this.openRoom(cid));
    const state = this.peers.get(peer);
    if (!state || !room) return; // disconnected meanwhile
    if (!room.listeners.has(peer) && peer.seat && state.rooms.size >= TalkLimits.seatChannels) {
      return peer.error(seq, TerminalErrors.invalid, `a seat hears at most ${TalkLimits.seatChannels} channels`);
    }
    if (!peer.seat && state.channel && state.channel !== room) this.leaveRoom(peer, state.channel);
    room.listeners.set(peer, priority);
    state.rooms.add(room);
    if (!peer.seat) state.channel = room;
    peer.ack(seq, { cid, priority });
    const floor = room.floor;
    if (floor.name !== 'idle') {
      const { uid, name, priority: held } = floor.holder;
      peer.notify({ type: 'floorTaken', cid, uid, name, priority: held });
    }
  }

  leave(peer: TalkPeer, cid: number, seq: number): void {
    const room = this.rooms.get(cid);
    if (!room || room.kind !== 'group' || !room.listeners.has(peer)) {
      return peer.error(seq, TalkErrors.notJoined, 'not joined to this channel');
    }
    this.leaveRoom(peer, room);
    peer.ack(seq);
  }

  async floorRequest(peer: TalkPeer, cid: number, seq: number): Promise<void> {
    const room = this.rooms.get(cid);
    const priority = room?.listeners.get(peer);
    if (!room || priority === undefined) return this.refuseNotJoined(peer, cid, seq);
    await this.step(room, { kind: 'request', request: { talker: { ...peer.talker, priority }, seq }, now: Date.now() });
  }

  floorRelease(peer: TalkPeer, cid: number, seq: number): Promise<void> | undefined {
    const room = this.rooms.get(cid);
    if (!room?.listeners.has(peer)) {
      peer.error(seq, TalkErrors.notJoined, 'not joined to this channel');
      return undefined;
    }
    peer.ack(seq);
    return this.step(room, { kind: 'release', key: peer.talker.key, now: Date.now() });
  }

  /** A private call to a connected terminal user of the same enterprise (a seat: of its scope). */
  async call(peer: TalkPeer, uid: number, seq: number): Promise<void> {
    if (peer.seat && !(await this.seatScope(peer))) return;
    const settings = await talkSettings(this.deps.db, peer.E_ID);
    const callee = this.users.get(uid);
    if (!callee && this.calls) return this.calls.offer(peer, uid, seq, settings);
    const reachable = callee && callee !== peer && reaches(peer.seat?.scope ?? null, peer.E_ID, callee.E_ID);
    if (!callee || !reachable) return peer.error(seq, TalkErrors.unavailable, 'that user is not reachable');
    const cid = this.shared ? await this.shared.floors.nextCallId() : this.callId();
    if (!this.peers.has(callee) || !this.peers.has(peer)) {
      return peer.error(seq, TalkErrors.unavailable, 'that user is not reachable');
    }
    const room = this.callRoom(cid, peer.E_ID, settings, [
      [peer, peer.seat?.priority ?? 0],
      [callee, 0],
    ]);
    peer.ack(seq, { cid });
    callee.send({ type: 'callStart', cid: room.cid, from: peer.talker.uid, name: peer.talker.name });
  }

  /** A call signal from another instance (see RemoteCalls). */
  remoteCall(signal: CallSignal): void {
    this.calls?.receive(signal);
  }

  private callRoom(cid: number, E_ID: number, settings: CallSettings, parties: [TalkPeer, number][]): TalkRoom {
    const limits = floorLimits(settings.maxTalkMs, this.options.floor);
    const room = new TalkRoom(cid, E_ID, 'private', limits, settings.recordEnable, '');
    room.parties = parties.map(([peer]) => peer);
    for (const [peer, priority] of parties) {
      room.listeners.set(peer, priority);
      this.peers.get(peer)?.rooms.add(room);
    }
    this.rooms.set(cid, room);
    return room;
  }

  hangup(peer: TalkPeer, cid: number, seq: number): void {
    const room = this.rooms.get(cid);
    if (room?.kind !== 'private' || !room.listeners.has(peer)) {
      return peer.error(seq, TalkErrors.notFound, 'no such call');
    }
    peer.ack(seq);
    this.endCall(room, peer);
  }

  /**
   * One binary frame from a terminal or seat: checked, rate limited, relayed when it holds the floor.
   * Refused frames are counted by the peer (its flood episodes), which answers at most once an episode.
   */
  audio(peer: TalkPeer & RefusingPeer, data: Buffer, now = Date.now()): void {
    const state = this.peers.get(peer);
    if (!state) return;
    if (!this.take(state, now)) return this.overLimit(peer, state, now);
    const frame = decodeAudioUp(data);
    if (!frame) {
      this.counters.badFrames += 1;
      return peer.badFrame(now, TalkErrors.badFrame, 'an audio frame is kind 1 · cid u32 · seq u16 · one Opus packet');
    }
    const room = this.rooms.get(frame.cid);
    if (!room || !holds(room.floor, peer.talker.key)) {
      // No reply: a few frames in flight after a revoke are normal, and the episode's count covers them.
      this.counters.notHolder += 1;
      return peer.refused('audioNoFloor', now);
    }
    void this.step(room, { kind: 'audio', key: peer.talker.key, now });
    const out = encodeAudioDown({ ...frame, cid: room.cid, speaker: peer.talker.uid }, allocUnsafe);
    for (const listener of room.listeners.keys()) if (listener !== peer) listener.outbox.push(out);
    if (this.shared && room.shared) this.shared.floors.publishAudio(room.token, out);
    room.burst?.write(frame.opus);
    this.counters.relayed += 1;
  }

  /** A frame relayed by another instance: to this instance's listeners, unless its holder was fenced off. */
  remoteAudio(token: number, frame: Buffer): void {
    const cid = decodeAudioDown(frame)?.cid;
    const room = cid === undefined ? undefined : this.rooms.get(cid);
    if (!room?.shared) return;
    if (token < room.token) {
      this.counters.fenced += 1;
      return;
    }
    for (const listener of room.listeners.keys()) listener.outbox.push(frame);
  }

  /** A floor transition made on another instance. */
  remoteNote(note: FloorNote): void {
    const room = this.rooms.get(note.cid);
    if (room) this.shared?.apply(room, note, Date.now());
  }

  /** Members removed from a channel (null: it was deleted, everyone) stop hearing it at once. */
  membersRemoved(cid: number, userIds: readonly number[] | null): void {
    const room = this.rooms.get(cid);
    if (room?.kind !== 'group') return;
    const removed = new Set(userIds);
    for (const peer of [...room.listeners.keys()]) {
      if (userIds && !(peer.user && removed.has(peer.user.U_ID))) continue;
      this.leaveRoom(peer, room);
      peer.notify({ type: 'channelLeft', cid, reason: 'removed' });
    }
  }

  /**
   * A seat's scope shrank (a changed working enterprise or enterprise tree): it leaves the channels
   * and ends the calls that lie outside, and is told `channelLeft` / `callEnd` as a removed member is.
   */
  rescoped(peer: TalkPeer): void {
    const seat = peer.seat;
    const state = this.peers.get(peer);
    if (!seat || !state) return;
    for (const room of [...state.rooms]) {
      if (room.kind === 'group') {
        if (inScope(seat.scope, room.E_ID)) continue;
        this.leaveRoom(peer, room);
        peer.notify({ type: 'channelLeft', cid: room.cid, reason: 'removed' });
      } else {
        const outside = (room.parties ?? []).some((party) => party !== peer && !inScope(seat.scope, party.E_ID));
        if (outside) this.endCall(room);
      }
    }
  }

  close(): void {
    clearInterval(this.timer);
    for (const peer of [...this.peers.keys()]) this.detach(peer);
  }

  private async openRoom(cid: number): Promise<TalkRoom | undefined> {
    const channel = await channelInfo(this.deps.db, cid);
    if (!channel) return undefined;
    const settings = await talkSettings(this.deps.db, channel.E_ID);
    const existing = this.rooms.get(cid);
    if (existing) return existing;
    const limits = floorLimits(settings.maxTalkMs, this.options.floor);
    const room = new TalkRoom(
      cid,
      channel.E_ID,
      'group',
      limits,
      channel.Record && settings.recordEnable,
      channel.CName,
    );
    if (this.shared) {
      room.shared = true;
      await this.shared.open(room);
    }
    const opened = this.rooms.get(cid);
    if (opened) return opened;
    this.rooms.set(cid, room);
    if (room.floor.name !== 'idle') this.active.add(room);
    return room;
  }

  private leaveRoom(peer: TalkPeer, room: TalkRoom): void {
    this.release(room, peer);
    room.listeners.delete(peer);
    const state = this.peers.get(peer);
    state?.rooms.delete(room);
    if (state?.channel === room) state.channel = null;
    this.dropIfUnused(room);
  }

  private dropIfUnused(room: TalkRoom): void {
    const unused = room.listeners.size === 0 && room.floor.name === 'idle';
    if (unused && room.kind === 'group' && this.rooms.get(room.cid) === room) this.rooms.delete(room.cid);
  }

  /** Releases `peer`'s hold of the floor; a shared floor answers after the peer has gone, so its burst ends now. */
  private release(room: TalkRoom, peer: TalkPeer): void {
    const now = Date.now();
    if (room.shared && holds(room.floor, peer.talker.key)) this.endBurst(room, peer, now);
    void this.step(room, { kind: 'release', key: peer.talker.key, now });
  }

  private endCall(room: TalkRoom, by?: TalkPeer, announce = true): void {
    for (const party of room.parties ?? []) this.release(room, party);
    if (room.shared && announce) this.shared?.floors.publishCall({ kind: 'end', cid: room.cid });
    for (const party of room.parties ?? []) {
      if (party !== by) party.send({ type: 'callEnd', cid: room.cid });
      this.peers.get(party)?.rooms.delete(room);
    }
    room.listeners.clear();
    this.rooms.delete(room.cid);
    this.active.delete(room);
  }

  private async refuseNotJoined(peer: TalkPeer, cid: number, seq: number): Promise<void> {
    if (cid >= CALL_ID_BASE) return peer.error(seq, TalkErrors.notFound, 'no such call');
    const channel = await channelInfo(this.deps.db, cid);
    const member = peer.seat
      ? channel !== undefined && inScope(peer.seat.scope, channel.E_ID)
      : channel?.E_ID === peer.E_ID &&
        peer.user !== null &&
        (await memberPriority(this.deps.db, cid, peer.user)) !== undefined;
    if (member) peer.error(seq, TalkErrors.notJoined, 'join the channel first');
    else peer.error(seq, TalkErrors.notMember, 'not a member of this channel');
  }

  /**
   * One floor event. A private call's floor, and any floor without REDIS_URL, lives here. A shared
   * floor changes only in Redis: events that change nothing locally (audio, quiet ticks) stay here,
   * the others go to Redis and come back as a note that every instance applies.
   */
  private step(room: TalkRoom, event: FloorEvent): Promise<void> | undefined {
    const local = stepFloor(room.floor, event, room.limits);
    const shared = room.shared ? this.shared : null;
    if (!shared || (event.kind !== 'request' && local.effects.length === 0)) {
      this.settle(room, local.state, local.effects, event.now);
      return undefined;
    }
    // Callers that answer a terminal wait for it (its next message sees the result); timers do not.
    // It never rejects: SharedRooms.step reports its own failures.
    return shared.step(room, event);
  }

  private settle(room: TalkRoom, state: FloorState, effects: FloorEffect[], now: number): void {
    room.floor = state;
    if (state.name === 'idle') this.active.delete(room);
    else this.active.add(room);
    for (const effect of effects) this.apply(room, effect, now);
    this.dropIfUnused(room);
  }

  private endBurst(room: TalkRoom, peer: TalkPeer | undefined, now: number): void {
    room.burst?.end(now);
    room.burst = null;
    if (peer) this.setHolding(peer, -1);
  }

  private apply(room: TalkRoom, effect: FloorEffect, now: number): void {
    switch (effect.kind) {
      case 'granted': {
        const { talker, seq } = effect.request;
        const peer = room.peerOf(talker.key);
        peer?.ack(seq, { granted: true, cid: room.cid });
        if (effect.again) return;
        room.tell({ type: 'floorTaken', cid: room.cid, uid: talker.uid, name: talker.name, priority: talker.priority });
        // The talker's own instance marks it talking and records what it sends.
        if (!peer) return;
        this.setHolding(peer, 1);
        room.burst = this.recorder(room, talker, now);
        return;
      }
      case 'busy':
        return room.peerOf(effect.request.talker.key)?.error(effect.request.seq, TalkErrors.busy, 'the floor is taken');
      case 'revoked':
        return room.peerOf(effect.talker.key)?.notify({ type: 'floorRevoked', cid: room.cid, reason: effect.reason });
      case 'ended':
        return this.endBurst(room, room.peerOf(effect.talker.key), now);
      case 'idle':
        return room.tell({ type: 'floorIdle', cid: room.cid });
    }
  }

  private setHolding(peer: TalkPeer, delta: number): void {
    const state = this.peers.get(peer);
    if (!state) return;
    const before = state.holding > 0;
    state.holding = Math.max(0, state.holding + delta);
    const after = state.holding > 0;
    if (before !== after && peer.user) this.deps.realtime.live.reportStatus({ ...peer.user, talking: after });
  }

  private tick(now: number): void {
    for (const room of [...this.active]) {
      const floor = room.floor;
      if (!this.shared || !room.shared || floor.name === 'idle') {
        void this.step(room, { kind: 'tick', now });
      } else {
        // Only the holder's instance sees its audio, so only it times the floor out.
        const holderHere = room.peerOf(floor.holder.key) !== undefined;
        this.shared.tick(room, holderHere, now);
        if (holderHere) void this.step(room, { kind: 'tick', now });
      }
    }
  }

  /** Audio rate: `framesPerSecond` on average, `framesBurst` at once. */
  private take(state: PeerState, now: number): boolean {
    if (!state.frames.take(now)) return false;
    state.overInRow = 0;
    return true;
  }

  /**
   * Frames over the rate are dropped; a talker that keeps flooding loses its floors, and the peer
   * closes its socket when the episode reaches its threshold (logged once, by the peer).
   */
  private overLimit(peer: TalkPeer & RefusingPeer, state: PeerState, now: number): void {
    this.counters.rateLimited += 1;
    state.overInRow += 1;
    if (state.overInRow >= this.options.floodCutAfter) {
      state.overInRow = 0;
      for (const room of [...state.rooms]) {
        if (holds(room.floor, peer.talker.key)) void this.step(room, { kind: 'flood', key: peer.talker.key, now });
      }
    }
    peer.refused('audioOverRate', now, [TerminalErrors.rateLimited, 'too many audio frames']);
  }

  private callId(): number {
    do {
      this.nextCall = (this.nextCall + 1) % 0x7fff_ffff;
    } while (this.rooms.has(CALL_ID_BASE + this.nextCall));
    return CALL_ID_BASE + this.nextCall;
  }
}
