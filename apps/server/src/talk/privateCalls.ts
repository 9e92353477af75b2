import { CALL_ID_BASE, TalkErrors } from '@intercom/contract';
import type { AppDeps } from '../appDeps.js';
import type { FloorLimits } from './floorMachine.js';
import { RemoteCalls, reaches, type CallSettings } from './remoteCalls.js';
import type { RoomFloors } from './roomFloors.js';
import type { PrivateCallSignal, SharedFloors } from './sharedFloors.js';
import { talkSettings } from './talkRepository.js';
import type { TalkPeer } from './talkPeer.js';
import type { TalkRegistry } from './talkRegistry.js';
import { floorLimits, TalkRoom } from './talkRoom.js';

/**
 * Private calls: a room of two parties with its own floor, placed to a terminal user connected
 * here, or with REDIS_URL to one connected to another instance (RemoteCalls), and hung up.
 */
export class PrivateCalls {
  private nextCall = 0;
  /** Told of every call that ends (the emergency calls forget theirs). */
  ended: (room: TalkRoom) => void = () => undefined;
  /** With REDIS_URL: private calls to users connected to other instances. */
  private remote: RemoteCalls | null = null;

  constructor(
    private readonly registry: TalkRegistry,
    private readonly floors: RoomFloors,
    private readonly deps: AppDeps,
    /** Overrides of the per-enterprise floor limits (tests). */
    private readonly limits: Partial<FloorLimits>,
  ) {}

  /** Places calls to users connected to other instances, who answer within `answerMs` (REDIS_URL). */
  share(floors: SharedFloors, answerMs: number): void {
    const { registry } = this;
    this.remote = new RemoteCalls(floors, answerMs, {
      started: () => this.deps.metrics.talk.callsStarted.inc(),
      user: (uid) => registry.users.get(uid),
      connected: (peer) => registry.peers.has(peer),
      room: (cid) => registry.rooms.get(cid),
      openCall: (cid, E_ID, settings, parties) => this.open(cid, E_ID, settings, parties),
      endCall: (room) => this.end(room, undefined, false),
    });
  }

  /** A call to a connected terminal user of the same enterprise (a seat: of its scope). */
  async call(peer: TalkPeer, uid: number, seq: number): Promise<void> {
    const settings = await talkSettings(this.deps.db, peer.E_ID);
    const callee = this.registry.users.get(uid);
    if (!callee && this.remote) return this.remote.offer(peer, uid, seq, settings);
    const reachable = callee && callee !== peer && reaches(peer.seat?.scope ?? null, peer.E_ID, callee.E_ID);
    if (!callee || !reachable) return peer.error(seq, TalkErrors.unavailable, 'that user is not reachable');
    const cid = await this.newCallId();
    if (!this.registry.peers.has(callee) || !this.registry.peers.has(peer)) {
      return peer.error(seq, TalkErrors.unavailable, 'that user is not reachable');
    }
    const room = this.open(cid, peer.E_ID, settings, [
      [peer, peer.seat?.priority ?? 0],
      [callee, 0],
    ]);
    peer.ack(seq, { cid });
    this.deps.metrics.talk.callsStarted.inc();
    callee.send({ type: 'callStart', cid: room.cid, from: peer.talker.uid, name: peer.talker.name });
  }

  /** A call signal from another instance (see RemoteCalls). */
  receive(signal: PrivateCallSignal): void {
    this.remote?.receive(signal);
  }

  hangup(peer: TalkPeer, cid: number, seq: number): void {
    const room = this.registry.rooms.get(cid);
    if (room?.kind !== 'private' || !room.listeners.has(peer)) {
      return peer.error(seq, TalkErrors.notFound, 'no such call');
    }
    peer.ack(seq);
    this.end(room, peer);
  }

  /** Ends a call: its floor is released and each party but `by` is told `callEnd`. */
  end(room: TalkRoom, by?: TalkPeer, announce = true): void {
    for (const party of room.parties ?? []) this.floors.release(room, party);
    if (room.shared && announce) this.registry.shared?.floors.publishCall({ kind: 'end', cid: room.cid });
    for (const party of room.parties ?? []) {
      if (party !== by) party.send({ type: 'callEnd', cid: room.cid });
      this.registry.peers.get(party)?.rooms.delete(room);
    }
    room.listeners.clear();
    this.registry.rooms.delete(room.cid);
    this.registry.active.delete(room);
    this.ended(room);
  }

  /** A call id no call here (with REDIS_URL: on any instance) has. */
  newCallId(): Promise<number> | number {
    const shared = this.registry.shared;
    return shared ? shared.floors.nextCallId() : this.callId();
  }

  /** A call room with these parties and their floor priorities. */
  open(cid: number, E_ID: number, settings: CallSettings, parties: [TalkPeer, number][]): TalkRoom {
    const limits = floorLimits(settings.maxTalkMs, this.limits);
    const room = new TalkRoom(cid, E_ID, 'private', limits, settings.recordEnable, '');
    room.parties = parties.map(([peer]) => peer);
    for (const [peer, priority] of parties) {
      room.listeners.set(peer, priority);
      this.registry.peers.get(peer)?.rooms.add(room);
    }
    this.registry.rooms.set(cid, room);
    return room;
  }

  private callId(): number {
    do {
      this.nextCall = (this.nextCall + 1) % 0x7fff_ffff;
    } while (this.registry.rooms.has(CALL_ID_BASE + this.nextCall));
    return CALL_ID_BASE + this.nextCall;
  }
}
