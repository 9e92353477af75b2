import type { TokenBucket } from '../core/tokenBucket.js';
import type { SharedRooms } from './sharedRooms.js';
import type { TalkPeer } from './talkPeer.js';
import type { TalkRoom } from './talkRoom.js';

/** Per connection: the rooms it hears and its audio rate limit. */
export interface PeerState {
  rooms: Set<TalkRoom>;
  /** A terminal's current channel (a seat may hear many). */
  channel: TalkRoom | null;
  frames: TokenBucket;
  overInRow: number;
  /** Floors it holds now (GpsRecord.talking while above 0). */
  holding: number;
}

/**
 * What the parts of one instance's talk service share: its rooms, its connections and terminal
 * users, the floors a tick looks at, and with REDIS_URL the floors shared with other instances.
 */
export class TalkRegistry {
  /** Channels someone here hears, and private calls, by cid. */
  readonly rooms = new Map<number, TalkRoom>();
  readonly peers = new Map<TalkPeer, PeerState>();
  /** Terminals by U_ID, to place private calls. */
  readonly users = new Map<number, TalkPeer>();
  /** Rooms whose floor is not idle: the tick times them out. */
  readonly active = new Set<TalkRoom>();
  /** With REDIS_URL: channel floors and their audio shared with the other instances. */
  shared: SharedRooms | null = null;

  /** A channel nobody here hears is forgotten once its floor is idle (a call ends with its parties). */
  dropIfUnused(room: TalkRoom): void {
    const unused = room.listeners.size === 0 && room.floor.name === 'idle';
    if (unused && room.kind === 'group' && this.rooms.get(room.cid) === room) this.rooms.delete(room.cid);
  }
}
