import { CALL_ID_BASE, TalkErrors, TalkLimits, TerminalErrors, type Notification } from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { ClockTimer } from '../core/clock.js';
import type { RefusingPeer } from '../core/refusalEpisodes.js';
import { TokenBucket } from '../core/tokenBucket.js';
import { openMembershipsOf } from '../modules/incident/index.js';
import { inScope } from '../tenancy/scope.js';
import { AudioFanOut, DEFAULT_BUNDLE, type BundleOptions } from './audioFanOut.js';
import { AudioRelay, type TalkCounters } from './audioRelay.js';
import { EmergencyCalls } from './emergencyCalls.js';
import type { FloorLimits } from './floorMachine.js';
import { PrivateCalls } from './privateCalls.js';
import { Regroups } from './regroups.js';
import { RoomFloors } from './roomFloors.js';
import { channelsOfUser } from './terminalChannels.js';
import { DEFAULT_LEASE_MS, type CallSignal, type FloorNote, type SharedFloors } from './sharedFloors.js';
import { SharedRooms } from './sharedRooms.js';
import { channelInfo, memberPriority, talkSettings } from './talkRepository.js';
import { TalkRegistry } from './talkRegistry.js';
import { floorLimits, TalkRoom, type BurstRecorder } from './talkRoom.js';
import type { TalkPeer } from './talkPeer.js';

/** Timings and limits of the talk service; tests shorten them. */
export interface TalkOptions {
  /** How often floors are checked for maximum talk time, silence and the pre-emption grace. */
  tickMs: number;
  /** Overrides of the per-enterprise floor limits (tests). */
  floor: Partial<FloorLimits>;
  framesPerSecond: number;
  framesBurst: number;
  floodCutAfter: number;
  /** Two frames per write to the terminals of big rooms (TALK_BUNDLE_LISTENERS). */
  bundle: BundleOptions;
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
  bundle: DEFAULT_BUNDLE,
  leaseMs: DEFAULT_LEASE_MS,
  callAnswerMs: 1_000,
};

export type { TalkCounters };

/**
 * Push-to-talk on one server instance: who hears which channel, and the entry point of every talk
 * command a terminal or seat sends. Its parts share a TalkRegistry: RoomFloors drives the floors
 * (floorMachine.ts) and applies their effects, PrivateCalls places and ends calls, AudioRelay
 * relays the talkers' frames.
 */
export class TalkService {
  private readonly registry = new TalkRegistry();
  private readonly floors: RoomFloors;
  private readonly calls: PrivateCalls;
  private readonly emergency: EmergencyCalls;
  private readonly relay: AudioRelay;
  private readonly timer: ClockTimer;
  /** Incident zones move terminals in and out of channels (regroups.ts). */
  readonly regroups: Regroups;
  /** Starts a burst's recording at each grant (talkPlugin sets the file recorder). */
  recorder: BurstRecorder = () => null;
  /**
   * Reads a dispatcher seat's session again before it joins or calls (its scope is read at use, never
   * frozen at login); false when the session ended and the seat is closing. Unset: the scope as it is.
   */
  seatScope: (peer: TalkPeer) => Promise<boolean> = () => Promise.resolve(true);

  constructor(
    private readonly deps: AppDeps,
    readonly options: TalkOptions,
    readonly log: FastifyBaseLogger,
  ) {
    this.floors = new RoomFloors(this.registry, deps, (room, talker, now) => this.recorder(room, talker, now));
    this.calls = new PrivateCalls(this.registry, this.floors, deps, options.floor);
    this.emergency = new EmergencyCalls(this.registry, this.floors, this.calls, deps, (error, context) =>
      log.error({ err: error }, context),
    );
    this.relay = new AudioRelay(this.registry, this.floors, options.floodCutAfter, new AudioFanOut(options.bundle));
    this.regroups = new Regroups(
      this.registry,
      {
        open: async (cid) => this.registry.rooms.get(cid) ?? this.openRoom(cid),
        leave: (peer, room) => this.leaveRoom(peer, room),
        priority: (cid, user) => memberPriority(deps.db, cid, user),
        memberships: (U_ID) => openMembershipsOf(deps.db, U_ID),
      },
      (error) => log.error({ err: error }, 'incident regroup failed'),
    );
    this.timer = deps.clock.interval(() => this.floors.tick(deps.clock.now()), options.tickMs);
  }

  /** Counters for tests, metrics and the benchmark. */
  get counters(): TalkCounters {
    return this.relay.counters;
  }

  /** Shares channel floors and audio with the other instances (REDIS_URL). */
  share(floors: SharedFloors): void {
    this.registry.shared = new SharedRooms(
      floors,
      (room, state, effects, now) => this.floors.settle(room, state, effects, now),
      this.log,
      this.deps.metrics,
      this.deps.clock,
    );
    this.calls.share(floors, this.options.callAnswerMs);
  }

  get sharedFloors(): SharedFloors | null {
    return this.registry.shared?.floors ?? null;
  }

  attach(peer: TalkPeer): void {
    const now = this.deps.clock.now();
    peer.outbox.totals = this.relay.counters;
    this.registry.peers.set(peer, {
      rooms: new Set(),
      channel: null,
      frames: new TokenBucket(this.options.framesPerSecond, this.options.framesBurst, now),
      overInRow: 0,
      holding: 0,
    });
    if (peer.user) this.registry.users.set(peer.user.U_ID, peer);
    // A seat is offered the open emergency calls of its scope; a terminal is put back into its
    // open incidents and its stale emergency calls end (docs/safety.md "Across restarts").
    const arrived = peer.seat
      ? this.emergency.seatArrived(peer)
      : Promise.all([this.emergency.terminalArrived(peer), this.regroups.rejoin(peer)]);
    arrived.catch((error: unknown) => this.log.error({ err: error }, 'talk attach'));
  }

  /** Disconnect (or freeze, or replacement): releases its floors, ends its calls, leaves its channels. */
  detach(peer: TalkPeer): void {
    const { peers, users } = this.registry;
    const state = peers.get(peer);
    if (!state) return;
    for (const room of [...state.rooms]) {
      if (room.kind === 'group') this.leaveRoom(peer, room);
      else if (!this.emergency.leave(peer, room)) this.calls.end(room);
    }
    peers.delete(peer);
    if (peer.user && users.get(peer.user.U_ID) === peer) users.delete(peer.user.U_ID);
    peer.outbox.close();
  }

  get roomCount(): number {
    return this.registry.rooms.size;
  }

  /** What is open on this instance now (metrics): channels heard here, calls, seats, floors held. */
  census(): { channels: number; calls: number; emergencyCalls: number; seats: number; floorsTaken: number } {
    let channels = 0;
    let calls = 0;
    let emergencyCalls = 0;
    let seats = 0;
    for (const room of this.registry.rooms.values()) {
      if (room.kind === 'group') channels += 1;
      else if (room.emergency) emergencyCalls += 1;
      else calls += 1;
    }
    for (const peer of this.registry.peers.keys()) if (peer.seat) seats += 1;
    return { channels, calls, emergencyCalls, seats, floorsTaken: this.registry.active.size };
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
    const room = this.registry.rooms.get(cid) ?? (await this.openRoom(cid));
    const state = this.registry.peers.get(peer);
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
    const room = this.registry.rooms.get(cid);
    if (!room || room.kind !== 'group' || !room.listeners.has(peer)) {
      return peer.error(seq, TalkErrors.notJoined, 'not joined to this channel');
    }
    this.leaveRoom(peer, room);
    peer.ack(seq);
  }

  async floorRequest(peer: TalkPeer, cid: number, seq: number): Promise<void> {
    const room = this.registry.rooms.get(cid);
    const priority = room?.listeners.get(peer);
    if (!room || priority === undefined) return this.refuseNotJoined(peer, cid, seq);
    const request = { talker: { ...peer.talker, priority }, seq };
    await this.floors.step(room, { kind: 'request', request, now: this.deps.clock.now() });
  }

  floorRelease(peer: TalkPeer, cid: number, seq: number): Promise<void> | undefined {
    const room = this.registry.rooms.get(cid);
    if (!room?.listeners.has(peer)) {
      peer.error(seq, TalkErrors.notJoined, 'not joined to this channel');
      return undefined;
    }
    peer.ack(seq);
    return this.floors.step(room, { kind: 'release', key: peer.talker.key, now: this.deps.clock.now() });
  }

  /** A private call to a connected terminal user of the same enterprise (a seat: of its scope). */
  async call(peer: TalkPeer, uid: number, seq: number): Promise<void> {
    if (peer.seat && !(await this.seatScope(peer))) return;
    return this.calls.call(peer, uid, seq);
  }

  /** A call signal from another instance (see RemoteCalls, EmergencyCalls). */
  remoteCall(signal: CallSignal): void {
    if (signal.kind === 'emergency') this.emergency.receive(signal);
    else this.calls.receive(signal);
  }

  /** An alarm on the bus: an SOS or ManDown of a terminal connected here opens its emergency call. */
  alarm(alarm: Notification): Promise<void> {
    return this.emergency.raised(alarm);
  }

  /** Waits for the emergency calls' database writes (tests, shutdown). */
  settleEmergency(): Promise<void> {
    return this.emergency.settle();
  }

  /** Emergency calls open on this instance. */
  get emergencyCalls(): number {
    return this.emergency.count;
  }

  hangup(peer: TalkPeer, cid: number, seq: number): void {
    this.calls.hangup(peer, cid, seq);
  }

  /** One binary frame from a terminal or seat (AudioRelay). */
  audio(peer: TalkPeer & RefusingPeer, data: Buffer, now = this.deps.clock.now()): void {
    this.relay.audio(peer, data, now);
  }

  /** A frame relayed by another instance: to this instance's listeners, unless its holder was fenced off. */
  remoteAudio(token: number, frame: Buffer): void {
    this.relay.remoteAudio(token, frame);
  }

  /** A floor transition made on another instance. */
  remoteNote(note: FloorNote): void {
    const room = this.registry.rooms.get(note.cid);
    if (room) this.registry.shared?.apply(room, note, this.deps.clock.now());
  }

  /** `channels`: the terminal user's channels in its enterprise (a seat has none of its own). */
  async channels(peer: TalkPeer, seq: number): Promise<void> {
    const user = peer.user;
    if (!user) return peer.error(seq, TerminalErrors.notSupported, 'a dispatcher seat has no channels of its own');
    const live = this.deps.realtime.live;
    const channels = await channelsOfUser(this.deps.db, user, (U_ID) => live.isOnline(user.E_ID, U_ID));
    peer.ack(seq, { channels });
  }

  /** These users' channel lists changed: their terminals connected here are told to ask again. */
  channelsChanged(E_ID: number, userIds: readonly number[]): void {
    for (const U_ID of new Set(userIds)) {
      const peer = this.registry.users.get(U_ID);
      if (peer?.user?.E_ID === E_ID) peer.notify({ type: 'channelsChanged' });
    }
  }

  /** Members removed from a channel (null: it was deleted, everyone) stop hearing it at once. */
  membersRemoved(cid: number, userIds: readonly number[] | null): void {
    const room = this.registry.rooms.get(cid);
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
    const state = this.registry.peers.get(peer);
    if (!seat || !state) return;
    for (const room of [...state.rooms]) {
      if (room.kind === 'group') {
        if (inScope(seat.scope, room.E_ID)) continue;
        this.leaveRoom(peer, room);
        peer.notify({ type: 'channelLeft', cid: room.cid, reason: 'removed' });
      } else if (room.emergency) {
        // Out of the scope, the seat leaves the emergency call; the others stay in it.
        if (!inScope(seat.scope, room.E_ID) && this.emergency.leave(peer, room)) {
          peer.notify({ type: 'callEnd', cid: room.cid });
        }
      } else {
        const outside = (room.parties ?? []).some((party) => party !== peer && !inScope(seat.scope, party.E_ID));
        if (outside) this.calls.end(room);
      }
    }
  }

  close(): void {
    this.timer.cancel();
    for (const peer of [...this.registry.peers.keys()]) this.detach(peer);
  }

  private async openRoom(cid: number): Promise<TalkRoom | undefined> {
    const channel = await channelInfo(this.deps.db, cid);
    if (!channel) return undefined;
    const settings = await talkSettings(this.deps.db, channel.E_ID);
    const { rooms, shared } = this.registry;
    const existing = rooms.get(cid);
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
    if (shared) {
      room.shared = true;
      await shared.open(room);
    }
    const opened = rooms.get(cid);
    if (opened) return opened;
    rooms.set(cid, room);
    if (room.floor.name !== 'idle') this.registry.active.add(room);
    return room;
  }

  private leaveRoom(peer: TalkPeer, room: TalkRoom): void {
    this.floors.release(room, peer);
    room.listeners.delete(peer);
    const state = this.registry.peers.get(peer);
    state?.rooms.delete(room);
    if (state?.channel === room) state.channel = null;
    this.registry.dropIfUnused(room);
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
}
