import { EMERGENCY_PRIORITY, NotificationStates, URGENT_ALARM_TYPES, type Notification } from '@intercom/contract';
import type { AppDeps } from '../appDeps.js';
import { inScope } from '../tenancy/scope.js';
import type { PrivateCalls } from './privateCalls.js';
import type { RoomFloors } from './roomFloors.js';
import type { CallSignal } from './sharedFloors.js';
import { talkSettings } from './talkRepository.js';
import type { TalkPeer } from './talkPeer.js';
import type { TalkRegistry } from './talkRegistry.js';
import type { TalkRoom } from './talkRoom.js';

type EmergencySignal = Extract<CallSignal, { kind: 'emergency' }>;

/** Alarms remembered so that one pushed again (acknowledged, escalated) never opens a second call. */
const SEEN_ALARMS = 10_000;

/** The highest priority a seat has in an emergency call: always below the terminal's. */
const SEAT_CEILING = EMERGENCY_PRIORITY - 1;

/**
 * Emergency calls (docs/safety.md): a terminal's `SOS` or `ManDown` alarm opens a call between
 * that terminal and every logged-in dispatcher seat whose scope holds its user. The instance that
 * holds the terminal opens it; with REDIS_URL the other instances offer it to their own seats
 * (one shared floor, as a private call across instances). The terminal talks at
 * EMERGENCY_PRIORITY, over anyone. A seat that leaves only leaves; the call ends when the terminal
 * hangs up or goes, or a dispatcher ends it (PrivateCalls.end, callEnd to every party).
 */
export class EmergencyCalls {
  /** The open emergency call of each terminal user connected here (opening: null). */
  private readonly byUser = new Map<number, TalkRoom | null>();
  private readonly seen = new Set<number>();

  constructor(
    private readonly registry: TalkRegistry,
    private readonly floors: RoomFloors,
    private readonly calls: PrivateCalls,
    private readonly deps: AppDeps,
  ) {
    calls.ended = (room) => this.ended(room);
  }

  /** Open emergency calls here (tests, metrics). */
  get count(): number {
    return [...this.registry.rooms.values()].filter((room) => room.emergency).length;
  }

  /** An alarm on the bus: a new SOS or ManDown of a terminal connected here opens its call. */
  async raised(alarm: Notification): Promise<void> {
    const { U_ID, N_ID, E_ID } = alarm;
    if (U_ID === null || alarm.State !== NotificationStates.new) return;
    if (!(URGENT_ALARM_TYPES as readonly string[]).includes(alarm.NType)) return;
    const terminal = this.registry.users.get(U_ID);
    if (!terminal || terminal.E_ID !== E_ID || this.seen.has(N_ID)) return;
    this.remember(N_ID);
    if (this.byUser.has(U_ID)) return; // a second alarm while the call is open joins it
    this.byUser.set(U_ID, null);
    try {
      await this.open(terminal);
    } finally {
      if (this.byUser.get(U_ID) === null) this.byUser.delete(U_ID);
    }
  }

  /** An emergency call opened on another instance: offered to the seats here whose scope holds it. */
  receive(signal: EmergencySignal): void {
    const seats = this.seatsFor(signal.E_ID);
    if (seats.length === 0 || this.registry.rooms.has(signal.cid)) return;
    const settings = { maxTalkMs: signal.maxTalkMs, recordEnable: signal.record };
    const room = this.calls.open(signal.cid, signal.E_ID, settings, seats.map(seatParty));
    room.shared = true;
    room.remoteParty = signal.from;
    this.offer(room, { uid: signal.from.uid, name: signal.from.name }, seats);
  }

  /**
   * `peer` leaves an emergency call without ending it (a seat that disconnects or loses the scope);
   * false when it is the terminal's, whose going ends the call. A room left with no party here
   * (the terminal is on another instance) is forgotten here only.
   */
  leave(peer: TalkPeer, room: TalkRoom): boolean {
    if (!room.emergency || !peer.seat) return false;
    this.floors.release(room, peer);
    room.listeners.delete(peer);
    room.parties = (room.parties ?? []).filter((party) => party !== peer);
    this.registry.peers.get(peer)?.rooms.delete(room);
    if (room.parties.length === 0) {
      this.registry.rooms.delete(room.cid);
      this.registry.active.delete(room);
    }
    return true;
  }

  private async open(terminal: TalkPeer): Promise<void> {
    const settings = await talkSettings(this.deps.db, terminal.E_ID);
    const cid = await this.calls.newCallId();
    if (!this.registry.peers.has(terminal)) return; // gone meanwhile
    const seats = this.seatsFor(terminal.E_ID);
    const parties: [TalkPeer, number][] = [[terminal, EMERGENCY_PRIORITY], ...seats.map(seatParty)];
    const room = this.calls.open(cid, terminal.E_ID, settings, parties);
    const { uid, name } = terminal.talker;
    const shared = this.registry.shared;
    if (shared) {
      room.shared = true;
      const from = { ...terminal.talker, priority: EMERGENCY_PRIORITY };
      const { maxTalkMs, recordEnable: record } = settings;
      shared.floors.publishCall({ kind: 'emergency', cid, from, E_ID: terminal.E_ID, record, maxTalkMs });
    }
    this.byUser.set(uid, room);
    terminal.send({ type: 'callStart', cid, emergency: true });
    this.offer(room, { uid, name }, seats);
  }

  private offer(room: TalkRoom, from: { uid: number; name: string }, seats: TalkPeer[]): void {
    room.emergency = from;
    const message = { type: 'callStart', cid: room.cid, from: from.uid, name: from.name, emergency: true } as const;
    for (const seat of seats) seat.send(message);
  }

  /** The logged-in seats here whose scope holds enterprise `E_ID`. */
  private seatsFor(E_ID: number): TalkPeer[] {
    const seats: TalkPeer[] = [];
    for (const peer of this.registry.peers.keys()) if (peer.seat && inScope(peer.seat.scope, E_ID)) seats.push(peer);
    return seats;
  }

  private ended(room: TalkRoom): void {
    const uid = room.emergency?.uid;
    if (uid !== undefined && this.byUser.get(uid) === room) this.byUser.delete(uid);
  }

  private remember(N_ID: number): void {
    this.seen.add(N_ID);
    if (this.seen.size > SEEN_ALARMS) this.seen.delete(this.seen.values().next().value as number);
  }
}

function seatParty(seat: TalkPeer): [TalkPeer, number] {
  return [seat, Math.min(seat.seat?.priority ?? 0, SEAT_CEILING)];
}
