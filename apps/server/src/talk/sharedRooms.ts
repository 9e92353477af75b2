import { TerminalErrors } from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Metrics } from '../core/metrics.js';
import type { FloorEffect, FloorEvent, FloorState } from './floorMachine.js';
import { LEASE_STEPS, type FloorNote, type SharedFloor, type SharedFloors } from './sharedFloors.js';
import type { TalkRoom } from './talkRoom.js';

/** What the talk service does with a floor state and its effects (acks, pushes, talking, recordings). */
export type Settle = (room: TalkRoom, state: FloorState, effects: FloorEffect[], now: number) => void;

/**
 * Keeps this instance's channel rooms in step with their shared floors (sharedFloors.ts): sends
 * floor events to Redis and applies the notes that come back, renews the lease of floors whose
 * holder is connected here, and notices a floor whose holder's instance died.
 */
export class SharedRooms {
  constructor(
    readonly floors: SharedFloors,
    private readonly settle: Settle,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {}

  /** Loads the floor of a room opened on this instance (someone elsewhere may be talking). */
  async open(room: TalkRoom): Promise<void> {
    this.adopt(room, await this.floors.read(room.cid));
  }

  async step(room: TalkRoom, event: FloorEvent): Promise<void> {
    try {
      const note = await this.floors.step(room.cid, event, room.limits, (floor) => this.withLocalAudio(room, floor));
      if (note.changed) this.floors.publishNote(note);
      this.apply(room, note, event.now);
    } catch (error) {
      this.log.error({ err: error, cid: room.cid }, 'shared floor unavailable');
      if (event.kind !== 'request') return;
      this.metrics.talk.floorsRefused.inc({ reason: 'unavailable' });
      room.peerOf(event.request.talker.key)?.error(event.request.seq, TerminalErrors.internal, 'floor unavailable');
    }
  }

  /** Takes on a shared floor newer than this mirror; effects apply either way (acks, busy, revoked). */
  apply(room: TalkRoom, note: FloorNote, now: number): void {
    const state = note.version >= room.version ? this.adopt(room, note) : room.floor;
    this.settle(room, state, note.effects, now);
  }

  /**
   * A tick of a floor that is not idle: renew it if its holder is here, else check it is still held.
   * Every tick (50 ms) may renew, so renewal rests on no single timer: the first tick after a stalled
   * event loop renews at once, and a stall shorter than the lease less one step keeps the floor.
   */
  tick(room: TalkRoom, holderHere: boolean, now: number): void {
    const step = this.floors.options.leaseMs / LEASE_STEPS;
    if (now - room.leaseAt < step) return;
    room.leaseAt = now;
    if (holderHere) this.observeRenewal(room, step, now);
    const check = holderHere
      ? this.floors.renew(room.cid, room.token).then((held) => (held ? undefined : this.check(room)))
      : this.check(room);
    check.catch((error: unknown) => this.log.error({ err: error, cid: room.cid }, 'floor lease check failed'));
  }

  /** How late this renewal of the same holder's lease is against its step (a stalled loop shows here). */
  private observeRenewal(room: TalkRoom, step: number, now: number): void {
    if (room.renewedToken === room.token && room.renewedAt > 0) {
      this.metrics.talk.leaseRenewLate.observe(Math.max(0, now - room.renewedAt - step) / 1000);
    }
    room.renewedAt = now;
    room.renewedToken = room.token;
  }

  /**
   * The floor in Redis no longer held under this mirror's token: follow it. A lapsed lease leaves
   * the version as it was, and is followed at once. A newer version is a write whose note is on its
   * way (pub/sub): the note announces it, so the check waits one step and acts only if the note has
   * still not come (it was lost), instead of announcing the same change twice.
   */
  private async check(room: TalkRoom): Promise<void> {
    const floor = await this.floors.read(room.cid);
    const held = room.floor;
    if (held.name === 'idle' || floor.version < room.version) return;
    if (floor.state.name !== 'idle' && floor.token === room.token) return;
    if (floor.version > room.version && floor.version > room.awaitedVersion) {
      room.awaitedVersion = floor.version;
      return;
    }
    const effects: FloorEffect[] = [{ kind: 'ended', talker: held.holder }];
    if (held.name === 'pendingRevoke') effects.unshift({ kind: 'busy', request: held.next });
    if (floor.state.name === 'idle') effects.push({ kind: 'idle' });
    this.settle(room, this.adopt(room, floor), effects, this.clock.now());
    const taken = room.floor;
    if (taken.name === 'idle') return;
    const { uid, name, priority } = taken.holder;
    room.tell({ type: 'floorTaken', cid: room.cid, uid, name, priority });
  }

  /** The shared state, with this instance's time of the holder's last frame (only it sees the audio). */
  private withLocalAudio(room: TalkRoom, floor: SharedFloor): FloorState {
    const [mine, theirs] = [room.floor, floor.state];
    if (mine.name === 'idle' || theirs.name === 'idle' || floor.token !== room.token) return theirs;
    if (mine.holder.key !== theirs.holder.key) return theirs;
    return { ...theirs, lastAudioAt: Math.max(theirs.lastAudioAt, mine.lastAudioAt) };
  }

  private adopt(room: TalkRoom, floor: SharedFloor): FloorState {
    room.floor = this.withLocalAudio(room, floor);
    room.token = Math.max(room.token, floor.token);
    room.version = floor.version;
    return room.floor;
  }
}
