import type { RealtimeEvent } from '../bus/eventBus.js';
import type { TalkPeer } from './talkPeer.js';
import type { TalkRegistry } from './talkRegistry.js';
import type { TalkRoom } from './talkRoom.js';

type IncidentEvent = Extract<RealtimeEvent, { kind: 'incident' }>;

/** What Regroups borrows from the talk service. */
export interface RegroupHooks {
  /** The channel's room, opened if nobody here hears it yet (undefined: the channel is gone). */
  open(cid: number): Promise<TalkRoom | undefined>;
  /** Takes a peer out of a room (releasing its floor). */
  leave(peer: TalkPeer, room: TalkRoom): void;
  /** The user's member priority in the channel, or undefined when it is no member (any more). */
  priority(cid: number, user: { U_ID: number; E_ID: number }): Promise<number | undefined>;
  /** The open incidents the user is a member of, the latest joined first. */
  memberships(U_ID: number): Promise<{ IN_ID: number; CID: number; E_ID: number; Name: string }[]>;
}

/**
 * Incident zones (modules/incident, docs/safety.md): puts the terminals connected to this instance
 * into an incident's channel and out of it without their asking. A joining terminal is told
 * `regrouped` and hears the channel at once (it leaves the channel it was in, as a `join` would);
 * one that leaves the zone is told `channelLeft` `left_zone`; at the close every listener, seats
 * included, is told `channelLeft` `incident_closed`. Every instance applies every incident event of
 * the bus to the peers it holds, so a terminal's instance does not matter.
 */
export class Regroups {
  /** Events apply one after another, in the order the bus delivered them. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: TalkRegistry,
    private readonly hooks: RegroupHooks,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** An incident event of the bus (from this instance or another). */
  heard(event: IncidentEvent): void {
    this.chain = this.chain.then(() => this.apply(event)).catch(this.onError);
  }

  /**
   * A terminal logged in (again: a reconnect, or a restart of its instance) while a member of an open
   * incident: it is regrouped into the incident's channel as at its joining (the latest joined, when
   * several: a terminal hears one channel). Queued behind the events heard so far.
   */
  rejoin(peer: TalkPeer): Promise<void> {
    const user = peer.user;
    if (!user) return Promise.resolve();
    const work = async () => {
      const [latest] = (await this.hooks.memberships(user.U_ID)).filter((m) => m.E_ID === user.E_ID);
      if (!latest) return;
      const { IN_ID, CID, E_ID, Name: name } = latest;
      await this.join(peer, user, {
        kind: 'incident',
        E_ID,
        IN_ID,
        CID,
        name,
        change: 'members',
        joined: [user.U_ID],
        left: [],
        reason: null,
      });
    };
    this.chain = this.chain.then(work).catch(this.onError);
    return this.chain;
  }

  /** Resolves once every event heard so far is applied (tests, the benchmark). */
  settle(): Promise<void> {
    return this.chain;
  }

  private async apply(event: IncidentEvent): Promise<void> {
    const { CID, reason } = event;
    if (event.change === 'closed') return this.dissolve(CID);
    const room = this.registry.rooms.get(CID);
    for (const U_ID of event.left) {
      const peer = this.registry.users.get(U_ID);
      if (!room || !peer || !room.listeners.has(peer)) continue;
      this.hooks.leave(peer, room);
      peer.notify({ type: 'channelLeft', cid: CID, reason: reason ?? 'left_zone' });
    }
    for (const U_ID of event.joined) {
      const peer = this.registry.users.get(U_ID);
      if (peer?.user) await this.join(peer, peer.user, event);
    }
  }

  private async join(peer: TalkPeer, user: { U_ID: number; E_ID: number }, event: IncidentEvent): Promise<void> {
    const priority = await this.hooks.priority(event.CID, user);
    const room = priority === undefined ? undefined : await this.hooks.open(event.CID);
    const state = this.registry.peers.get(peer);
    // Gone meanwhile: disconnected, left the zone again, or the incident closed.
    if (!room || priority === undefined || !state || this.registry.users.get(user.U_ID) !== peer) return;
    if (room.listeners.has(peer)) return;
    if (state.channel && state.channel !== room) this.hooks.leave(peer, state.channel);
    // Told first, so that no audio of the channel reaches it before it knows why.
    peer.notify({ type: 'regrouped', cid: event.CID, name: event.name, incident: event.IN_ID });
    room.listeners.set(peer, priority);
    state.rooms.add(room);
    state.channel = room;
    const floor = room.floor;
    if (floor.name !== 'idle') {
      const { uid, name, priority: held } = floor.holder;
      peer.notify({ type: 'floorTaken', cid: event.CID, uid, name, priority: held });
    }
  }

  /** The incident closed: every listener here leaves, told why. */
  private dissolve(cid: number): void {
    const room = this.registry.rooms.get(cid);
    if (room?.kind !== 'group') return;
    for (const peer of [...room.listeners.keys()]) {
      this.hooks.leave(peer, room);
      peer.notify({ type: 'channelLeft', cid, reason: 'incident_closed' });
    }
  }
}
