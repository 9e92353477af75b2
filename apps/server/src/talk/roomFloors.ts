import { TalkErrors } from '@intercom/contract';
import type { AppDeps } from '../appDeps.js';
import { stepFloor, type FloorEffect, type FloorEvent, type FloorState, holds } from './floorMachine.js';
import type { TalkPeer } from './talkPeer.js';
import type { TalkRegistry } from './talkRegistry.js';
import type { BurstRecorder, TalkRoom } from './talkRoom.js';

/** A tick this long after the one before it follows a stalled event loop (a GC pause, a busy tick). */
const STALL_MS = 250;

/**
 * Drives the rooms' floors: steps them through floorMachine.ts (or, for a shared floor, through
 * Redis) and applies the effects: acks and pushes, a talker's GpsRecord.talking, its recording.
 */
export class RoomFloors {
  private lastTickAt = 0;
  /** Whether the last tick left the timing rules to the next one (never two in a row). */
  private deferred = false;

  constructor(
    private readonly registry: TalkRegistry,
    private readonly deps: AppDeps,
    /** Starts a burst's recording (the talk service's `recorder`, read at each grant). */
    private readonly record: BurstRecorder,
  ) {}

  /**
   * One floor event. A private call's floor, and any floor without REDIS_URL, lives here. A shared
   * floor changes only in Redis: events that change nothing locally (audio, quiet ticks) stay here,
   * the others go to Redis and come back as a note that every instance applies.
   */
  step(room: TalkRoom, event: FloorEvent): Promise<void> | undefined {
    const local = stepFloor(room.floor, event, room.limits);
    const shared = room.shared ? this.registry.shared : null;
    if (!shared || (event.kind !== 'request' && local.effects.length === 0)) {
      this.settle(room, local.state, local.effects, event.now);
      return undefined;
    }
    // Callers that answer a terminal wait for it (its next message sees the result); timers do not.
    // It never rejects: SharedRooms.step reports its own failures.
    return shared.step(room, event);
  }

  settle(room: TalkRoom, state: FloorState, effects: FloorEffect[], now: number): void {
    room.floor = state;
    if (state.name === 'idle') this.registry.active.delete(room);
    else this.registry.active.add(room);
    for (const effect of effects) this.apply(room, effect, now);
    this.registry.dropIfUnused(room);
  }

  /** Releases `peer`'s hold of the floor; a shared floor answers after the peer has gone, so its burst ends now. */
  release(room: TalkRoom, peer: TalkPeer): void {
    const now = this.deps.clock.now();
    if (room.shared && holds(room.floor, peer.talker.key)) this.endBurst(room, peer, now);
    void this.step(room, { kind: 'release', key: peer.talker.key, now });
  }

  /**
   * Times out the floors that are not idle (maximum talk time, silence, the pre-emption grace) and
   * renews or checks the shared ones' leases. The first tick after a stalled event loop renews the
   * leases but leaves the timing rules to the next tick: the talkers' frames that came during the
   * stall still wait in the sockets, and would otherwise read as silence.
   */
  tick(now: number): void {
    const stalled = this.lastTickAt > 0 && now - this.lastTickAt > STALL_MS && !this.deferred;
    this.lastTickAt = now;
    this.deferred = stalled;
    const shared = this.registry.shared;
    for (const room of [...this.registry.active]) {
      const floor = room.floor;
      if (!shared || !room.shared || floor.name === 'idle') {
        if (!stalled) void this.step(room, { kind: 'tick', now });
      } else {
        // Only the holder's instance sees its audio, so only it times the floor out.
        const holderHere = room.peerOf(floor.holder.key) !== undefined;
        shared.tick(room, holderHere, now);
        if (holderHere && !stalled) void this.step(room, { kind: 'tick', now });
      }
    }
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
        // The talker's own instance marks it talking, records what it sends and counts the grant.
        if (!peer) return;
        const { talk } = this.deps.metrics;
        talk.floorsGranted.inc();
        talk.floorGrant.observe(Math.max(0, this.deps.clock.now() - now) / 1000);
        this.setHolding(peer, 1);
        room.burst = this.record(room, talker, now);
        return;
      }
      case 'busy': {
        const peer = room.peerOf(effect.request.talker.key);
        if (!peer) return;
        this.deps.metrics.talk.floorsRefused.inc({ reason: 'busy' });
        return peer.error(effect.request.seq, TalkErrors.busy, 'the floor is taken');
      }
      case 'revoked': {
        const peer = room.peerOf(effect.talker.key);
        if (!peer) return;
        this.deps.metrics.talk.floorsRevoked.inc({ reason: effect.reason });
        return peer.notify({ type: 'floorRevoked', cid: room.cid, reason: effect.reason });
      }
      case 'ended':
        return this.endBurst(room, room.peerOf(effect.talker.key), now);
      case 'idle':
        return room.tell({ type: 'floorIdle', cid: room.cid });
    }
  }

  private setHolding(peer: TalkPeer, delta: number): void {
    const state = this.registry.peers.get(peer);
    if (!state) return;
    const before = state.holding > 0;
    state.holding = Math.max(0, state.holding + delta);
    const after = state.holding > 0;
    if (before !== after && peer.user) this.deps.realtime.live.reportStatus({ ...peer.user, talking: after });
  }
}
