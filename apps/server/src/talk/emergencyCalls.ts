import { EMERGENCY_PRIORITY, NotificationStates, URGENT_ALARM_TYPES, type Notification } from '@intercom/contract';
import type { AppDeps } from '../appDeps.js';
import { inScope } from '../tenancy/scope.js';
import { claimAlarm, unclaimAlarm } from '../modules/notify/index.js';
import { openCallsIn, openCallsOf, recordEnded, recordOpened, type OpenEmergencyCall } from './emergencyCallRows.js';
import type { PrivateCalls } from './privateCalls.js';
import type { RoomFloors } from './roomFloors.js';
import type { CallSignal } from './sharedFloors.js';
import { talkSettings } from './talkRepository.js';
import type { TalkPeer } from './talkPeer.js';
import type { TalkRegistry } from './talkRegistry.js';
import type { TalkRoom } from './talkRoom.js';

type EmergencySignal = Extract<CallSignal, { kind: 'emergency' }>;

/** The highest priority a seat has in an emergency call: always below the terminal's. */
const SEAT_CEILING = EMERGENCY_PRIORITY - 1;

/**
 * Emergency calls (docs/safety.md): a terminal's `SOS` or `ManDown` alarm opens a call between
 * that terminal and every logged-in dispatcher seat whose scope holds its user. The instance that
 * holds the terminal opens it; with REDIS_URL the other instances offer it to their own seats
 * (one shared floor, as a private call across instances). The terminal talks at
 * EMERGENCY_PRIORITY, over anyone. A seat that leaves only leaves; the call ends when the terminal
 * hangs up or goes, or a dispatcher ends it (PrivateCalls.end, callEnd to every party).
 *
 * What survives a restart and holds across instances lives in the database: an alarm is claimed for
 * a call (`notification.CallID`, a conditional update) before the call opens, so the same alarm
 * pushed again (escalated, after a restart, on another instance) opens nothing; open calls are
 * listed in `emergency_call`, so a seat that logs in later, on any instance, is offered them.
 */
export class EmergencyCalls {
  /** The open emergency call of each terminal user connected here (opening: the promise of it). */
  private readonly byUser = new Map<number, TalkRoom | Promise<TalkRoom | undefined>>();
  /** Database writes under way (tests and shutdown wait for them). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly registry: TalkRegistry,
    private readonly floors: RoomFloors,
    private readonly calls: PrivateCalls,
    private readonly deps: AppDeps,
    private readonly onError: (error: unknown, context: string) => void = () => undefined,
  ) {
    calls.ended = (room) => this.ended(room);
  }

  /** Open emergency calls here (tests, metrics). */
  get count(): number {
    return [...this.registry.rooms.values()].filter((room) => room.emergency).length;
  }

  /** An alarm on the bus: a new SOS or ManDown of a terminal connected here opens its call, once. */
  async raised(alarm: Notification): Promise<void> {
    const { U_ID, N_ID, E_ID } = alarm;
    if (U_ID === null || alarm.State !== NotificationStates.new) return;
    if (!(URGENT_ALARM_TYPES as readonly string[]).includes(alarm.NType)) return;
    const terminal = this.registry.users.get(U_ID);
    if (!terminal || terminal.E_ID !== E_ID) return;
    const current = this.byUser.get(U_ID);
    if (current) {
      // A second alarm while the call is open joins it (claimed for it, so it never opens one later).
      const room = await current;
      if (room) await claimAlarm(this.deps.db, N_ID, room.cid);
      return;
    }
    const opening = this.open(terminal, N_ID);
    this.byUser.set(U_ID, opening);
    try {
      const room = await opening;
      if (room && this.byUser.get(U_ID) === opening) this.byUser.set(U_ID, room);
    } finally {
      if (this.byUser.get(U_ID) === opening) this.byUser.delete(U_ID);
    }
  }

  /**
   * A dispatcher seat logged in here: it is offered every open emergency call of its scope, as the
   * seats logged in at the call's start were (`callStart` with `emergency`, hearing it at once).
   */
  async seatArrived(seat: TalkPeer): Promise<void> {
    const scope = seat.seat?.scope;
    if (!scope) return;
    const stale: number[] = [];
    for (const call of await openCallsIn(this.deps.db, scope.enterpriseIds)) {
      if (!this.registry.peers.has(seat) || !inScope(seat.seat?.scope ?? scope, call.E_ID)) return;
      const room = this.registry.rooms.get(call.CID);
      if (room?.emergency) this.admit(room, seat);
      else if (room) continue;
      else if (this.registry.shared && this.deps.realtime.live.user(call.E_ID, call.U_ID)?.online)
        this.adopt(call, seat);
      else stale.push(call.CID); // its terminal is gone (one instance, or an instance that stopped)
    }
    await recordEnded(this.deps.db, stale, this.deps.clock.now());
  }

  /**
   * A terminal logged in here: calls still stored open for it are stale (its previous connection,
   * on an instance that stopped without ending them); they end everywhere.
   */
  async terminalArrived(terminal: TalkPeer): Promise<void> {
    if (!terminal.user) return;
    const stale = (await openCallsOf(this.deps.db, terminal.user.U_ID)).filter((cid) => !this.registry.rooms.has(cid));
    await recordEnded(this.deps.db, stale, this.deps.clock.now());
    for (const cid of stale) this.registry.shared?.floors.publishCall({ kind: 'end', cid });
  }

  /** Waits for the database writes under way (tests, shutdown). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
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

  private async open(terminal: TalkPeer, N_ID: number): Promise<TalkRoom | undefined> {
    const settings = await talkSettings(this.deps.db, terminal.E_ID);
    const cid = await this.calls.newCallId();
    if (!(await claimAlarm(this.deps.db, N_ID, cid))) return undefined; // opened before (restart, escalation)
    if (!this.registry.peers.has(terminal)) {
      await unclaimAlarm(this.deps.db, N_ID, cid); // gone meanwhile: its next connection may still open it
      return undefined;
    }
    const seats = this.seatsFor(terminal.E_ID);
    const parties: [TalkPeer, number][] = [[terminal, EMERGENCY_PRIORITY], ...seats.map(seatParty)];
    const room = this.calls.open(cid, terminal.E_ID, settings, parties);
    const { uid, name } = terminal.talker;
    const { maxTalkMs, recordEnable: record } = settings;
    const shared = this.registry.shared;
    if (shared) {
      room.shared = true;
      const from = { ...terminal.talker, priority: EMERGENCY_PRIORITY };
      shared.floors.publishCall({ kind: 'emergency', cid, from, E_ID: terminal.E_ID, record, maxTalkMs });
    }
    terminal.send({ type: 'callStart', cid, emergency: true });
    this.offer(room, { uid, name }, seats);
    const row = { CID: cid, E_ID: terminal.E_ID, U_ID: uid, UserName: name, Record: record, MaxTalkMs: maxTalkMs };
    this.track(recordOpened(this.deps.db, row, this.deps.clock.now()));
    return room;
  }

  /** A late seat joins a call held here: a party from now on, told `callStart`, and who talks. */
  private admit(room: TalkRoom, seat: TalkPeer): void {
    const from = room.emergency;
    if (!from || room.listeners.has(seat)) return;
    const [, priority] = seatParty(seat);
    room.parties = [...(room.parties ?? []), seat];
    room.listeners.set(seat, priority);
    this.registry.peers.get(seat)?.rooms.add(room);
    seat.send({ type: 'callStart', cid: room.cid, from: from.uid, name: from.name, emergency: true });
    const floor = room.floor;
    if (floor.name !== 'idle') {
      const { uid, name, priority: held } = floor.holder;
      seat.notify({ type: 'floorTaken', cid: room.cid, uid, name, priority: held });
    }
  }

  /** A late seat here joins a call whose terminal is on another instance (as `receive` does). */
  private adopt(call: OpenEmergencyCall, seat: TalkPeer): void {
    const from = { key: `U${call.U_ID}`, uid: call.U_ID, name: call.UserName, priority: EMERGENCY_PRIORITY };
    const settings = { maxTalkMs: call.MaxTalkMs, recordEnable: call.Record };
    const room = this.calls.open(call.CID, call.E_ID, settings, [seatParty(seat)]);
    room.shared = true;
    room.remoteParty = from;
    this.offer(room, { uid: from.uid, name: from.name }, [seat]);
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
    if (uid === undefined || this.byUser.get(uid) !== room) return;
    this.byUser.delete(uid);
    this.track(recordEnded(this.deps.db, [room.cid], this.deps.clock.now()));
  }

  private track(write: Promise<unknown>): void {
    const tracked = write.catch((error: unknown) => this.onError(error, 'emergency call row'));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }
}

function seatParty(seat: TalkPeer): [TalkPeer, number] {
  return [seat, Math.min(seat.seat?.priority ?? 0, SEAT_CEILING)];
}
