import { TalkLimits, type TalkServerMessage } from '@intercom/contract';
import { IDLE, type FloorLimits, type FloorState, type Talker } from './floorMachine.js';
import type { TalkPeer } from './talkPeer.js';

/** A recording in progress: packets of one burst. */
export interface Burst {
  write(opus: Buffer): void;
  end(now: number): void;
}

/** Starts a burst's recording, or returns null when the room does not record. */
export type BurstRecorder = (room: TalkRoom, talker: Talker, now: number) => Burst | null;

/** A talker's frame held back for a bundle (audioFanOut.ts), and for whom. */
export interface HeldFrame {
  wire: Buffer;
  /** The talker, who does not hear itself (null: a frame from another instance). */
  except: TalkPeer | null;
  timer: NodeJS.Timeout;
}

/** One floor with its listeners: a channel (`group`) or a private call (`private`). */
export class TalkRoom {
  floor: FloorState = IDLE;
  /** Who hears the room, with each one's floor priority in it. */
  readonly listeners = new Map<TalkPeer, number>();
  burst: Burst | null = null;
  /** With shared floors: the fencing token of the holder (frames under an older one are refused)... */
  token = 0;
  /** ...the version of the floor this mirror shows, and when its lease was last renewed or checked. */
  version = 0;
  leaseAt = 0;
  /** A newer version a lease check read in Redis before its note came: the next check acts if it still has not. */
  awaitedVersion = 0;
  /** When this instance last renewed the lease of the holder granted under `renewedToken` (the lateness metric). */
  renewedAt = 0;
  renewedToken = 0;
  /** The parties of a private call connected to this instance (both, unless the call crosses instances). */
  parties: TalkPeer[] | null = null;
  /** The party of a private call connected to another instance. */
  remoteParty: Talker | null = null;
  /** The floor lives in Redis (sharedFloors.ts): every channel with REDIS_URL, and calls across instances. */
  shared = false;
  /** An emergency call (emergencyCalls.ts): the terminal that raised it; its seats come and go, it stays. */
  emergency: { uid: number; name: string } | null = null;
  /** A frame waiting for the next to go out with it to the terminals (big rooms: audioFanOut.ts). */
  held: HeldFrame | null = null;

  constructor(
    readonly cid: number,
    readonly E_ID: number,
    readonly kind: 'group' | 'private',
    readonly limits: FloorLimits,
    /** Channel record switch AND enterprise RecordEnable (calls: RecordEnable). */
    readonly record: boolean,
    readonly name: string,
  ) {}

  peerOf(key: string): TalkPeer | undefined {
    for (const peer of this.listeners.keys()) if (peer.talker.key === key) return peer;
    return undefined;
  }

  /** Sends a floor event to every listener, behind the audio already queued to each (a held frame too). */
  tell(message: TalkServerMessage): void {
    this.flushHeld();
    for (const peer of this.listeners.keys()) peer.notify(message);
  }

  /** Writes the held frame alone to the terminals it was held for. */
  flushHeld(): void {
    const held = this.held;
    if (!held) return;
    this.held = null;
    clearTimeout(held.timer);
    for (const peer of this.listeners.keys()) if (peer !== held.except && !peer.seat) peer.outbox.push(held.wire);
  }
}

export function floorLimits(maxTalkMs: number, overrides: Partial<FloorLimits> = {}): FloorLimits {
  return { maxTalkMs, silenceMs: TalkLimits.silenceMs, revokeGraceMs: TalkLimits.revokeGraceMs, ...overrides };
}
