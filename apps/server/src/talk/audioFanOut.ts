import type { TalkPeer } from './talkPeer.js';
import type { TalkRoom } from './talkRoom.js';

/** When a room's frames go out two to a write. */
export interface BundleOptions {
  /** Listeners on this instance from which a room's terminals get bundles; 0: never. */
  fromListeners: number;
  /** How long a frame waits for the next one (a talker sends one every 20 ms). */
  holdMs: number;
}

export const DEFAULT_BUNDLE: BundleOptions = { fromListeners: 100, holdMs: 25 };

/**
 * A talker's frame to every listener of its room. Each listener's frame is a `write(2)` of its own,
 * and in a big room those writes are most of the server's CPU (docs/benchmarks.md, issue 34): so in
 * a room with `fromListeners` or more listeners here, the terminals get two consecutive frames in one
 * write. The first waits for the second (20 ms later) or `holdMs`, whichever comes first; the two stay
 * two WebSocket messages, the same bytes for every terminal, built once. Dispatcher seats get every
 * frame at once: the browser plays after 40 ms of sound, and a frame held 20 ms would eat that margin.
 * A floor event first writes out what is held (TalkRoom.tell), so it never overtakes the audio it ends.
 */
export class AudioFanOut {
  constructor(private readonly options: BundleOptions) {}

  send(room: TalkRoom, wire: Buffer, except: TalkPeer | null): void {
    const { fromListeners, holdMs } = this.options;
    if (fromListeners === 0 || room.listeners.size < fromListeners) {
      room.flushHeld();
      for (const peer of room.listeners.keys()) if (peer !== except) peer.outbox.push(wire);
      return;
    }
    for (const peer of room.listeners.keys()) if (peer !== except && peer.seat) peer.outbox.push(wire);
    const held = room.held;
    if (held?.except === except) {
      room.held = null;
      clearTimeout(held.timer);
      const bundle = Buffer.concat([held.wire, wire]);
      for (const peer of room.listeners.keys()) if (peer !== except && !peer.seat) peer.outbox.push(bundle, 2);
      return;
    }
    room.flushHeld();
    const timer = setTimeout(() => room.flushHeld(), holdMs);
    timer.unref();
    room.held = { wire, except, timer };
  }
}
