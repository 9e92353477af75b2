import { TalkErrors, TerminalErrors } from '@intercom/contract';
import { decodeAudioDown, decodeAudioUp, encodeAudioDown } from '@intercom/terminal-client';
import type { RefusingPeer } from '../core/refusalEpisodes.js';
import { holds } from './floorMachine.js';
import type { AudioFanOut } from './audioFanOut.js';
import type { RoomFloors } from './roomFloors.js';
import type { TalkPeer } from './talkPeer.js';
import type { PeerState, TalkRegistry } from './talkRegistry.js';
import { webSocketFrame } from '../http/webSocketFrame.js';

/** Down frames are built once per talker frame and written over at once: no zero fill, a Buffer for ws. */
const allocUnsafe = (bytes: number) => Buffer.allocUnsafe(bytes);

/** Counters for tests, metrics and the benchmark. */
export interface TalkCounters {
  relayed: number;
  notHolder: number;
  badFrames: number;
  rateLimited: number;
  /** Frames from other instances refused because a newer holder has the floor (fencing token). */
  fenced: number;
  /** Frames published for listeners on other instances (REDIS_URL). */
  published: number;
  /** Frames from other instances relayed to listeners here. */
  remote: number;
  /** Frames lost by listeners' full queues (AudioOutbox), every listener of this instance together. */
  dropped: number;
}

/**
 * The audio relay: a talker's frames, checked and rate limited, to every other listener of its
 * floor (and with REDIS_URL to the other instances), and frames relayed by other instances to the
 * listeners here.
 */
export class AudioRelay {
  readonly counters: TalkCounters = {
    relayed: 0,
    notHolder: 0,
    badFrames: 0,
    rateLimited: 0,
    fenced: 0,
    published: 0,
    remote: 0,
    dropped: 0,
  };

  constructor(
    private readonly registry: TalkRegistry,
    private readonly floors: RoomFloors,
    /** Frames over the rate in a row after which a talker loses its floors. */
    private readonly floodCutAfter: number,
    private readonly fanOut: AudioFanOut,
  ) {}

  /**
   * One binary frame from a terminal or seat: checked, rate limited, relayed when it holds the floor.
   * Refused frames are counted by the peer (its flood episodes), which answers at most once an episode.
   * `now` is AppDeps.clock's time (TalkService), which the rate and the floor's silence are timed by.
   */
  audio(peer: TalkPeer & RefusingPeer, data: Buffer, now: number): void {
    const state = this.registry.peers.get(peer);
    if (!state) return;
    if (!this.take(state, now)) return this.overLimit(peer, state, now);
    const frame = decodeAudioUp(data);
    if (!frame) {
      this.counters.badFrames += 1;
      return peer.badFrame(now, TalkErrors.badFrame, 'an audio frame is kind 1 · cid u32 · seq u16 · one Opus packet');
    }
    const room = this.registry.rooms.get(frame.cid);
    if (!room || !holds(room.floor, peer.talker.key)) {
      // No reply: a few frames in flight after a revoke are normal, and the episode's count covers them.
      this.counters.notHolder += 1;
      return peer.refused('audioNoFloor', now);
    }
    void this.floors.step(room, { kind: 'audio', key: peer.talker.key, now });
    const out = encodeAudioDown({ ...frame, cid: room.cid, speaker: peer.talker.uid }, allocUnsafe);
    this.fanOut.send(room, webSocketFrame(out), peer);
    const shared = this.registry.shared;
    if (shared && room.shared) {
      shared.floors.publishAudio(room.token, out);
      this.counters.published += 1;
    }
    room.burst?.write(frame.opus);
    this.counters.relayed += 1;
  }

  /** A frame relayed by another instance: to this instance's listeners, unless its holder was fenced off. */
  remoteAudio(token: number, frame: Buffer): void {
    const cid = decodeAudioDown(frame)?.cid;
    const room = cid === undefined ? undefined : this.registry.rooms.get(cid);
    if (!room?.shared) return;
    if (token < room.token) {
      this.counters.fenced += 1;
      return;
    }
    this.fanOut.send(room, webSocketFrame(frame), null);
    this.counters.remote += 1;
  }

  /** Audio rate: `framesPerSecond` on average, `framesBurst` at once. */
  private take(state: PeerState, now: number): boolean {
    if (!state.frames.take(now)) return false;
    state.overInRow = 0;
    return true;
  }

  /**
   * Frames over the rate are dropped; a talker that keeps flooding loses its floors, and the peer
   * closes its socket when the episode reaches its threshold (logged once, by the peer).
   */
  private overLimit(peer: TalkPeer & RefusingPeer, state: PeerState, now: number): void {
    this.counters.rateLimited += 1;
    state.overInRow += 1;
    if (state.overInRow >= this.floodCutAfter) {
      state.overInRow = 0;
      for (const room of [...state.rooms]) {
        if (holds(room.floor, peer.talker.key))
          void this.floors.step(room, { kind: 'flood', key: peer.talker.key, now });
      }
    }
    peer.refused('audioOverRate', now, [TerminalErrors.rateLimited, 'too many audio frames']);
  }
}
