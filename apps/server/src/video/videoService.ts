import {
  TalkErrors,
  TerminalErrors,
  VideoErrors,
  VideoLimits,
  isVideoKeyFrame,
  type TerminalErrorCode,
  type TerminalServerMessage,
  videoCodecName,
  type VideoCodecName,
  type VideoSource,
} from '@intercom/contract';
import { decodeVideoUp, encodeVideoDown } from '@intercom/terminal-client';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { RefusingPeer } from '../core/refusalEpisodes.js';
import { inScope, type Scope } from '../tenancy/scope.js';
import type { BinarySink } from '../http/webSocketFrame.js';
import type { TokenBucket } from '../core/tokenBucket.js';
import { hasVideoRights, terminalUserEnterprise } from './videoRepository.js';
import { VideoInstances, newSource } from './videoInstances.js';
import { DEFAULT_VIDEO_OUTBOX, VideoOutbox, type VideoDrops, type VideoOutboxLimits } from './videoOutbox.js';

/** Down frames are built once per terminal frame and written over at once: no zero fill, a Buffer for ws. */
const allocUnsafe = (bytes: number) => Buffer.allocUnsafe(bytes);

/**
 * A terminal or seat as video sees it (a TerminalConnection, which talk knows as a TalkPeer): the
 * user or the seat it is, how it is answered, a binary sink for its viewer queue, and a count of the
 * frames refused to it (flood episodes).
 */
export interface VideoPeer extends RefusingPeer {
  readonly user: { U_ID: number; E_ID: number; UserName: string } | null;
  readonly seat: { scope: Scope } | null;
  readonly binary: BinarySink;
  send(message: TerminalServerMessage): void;
  ack(seq: number, result?: Record<string, unknown>): void;
  error(seq: number | null, code: TerminalErrorCode, message: string): void;
}

/**
 * A terminal that announced codecs and has video rights: connected here (`peer`), or to the
 * instance `origin` (REDIS_URL; `peer` null), whose frames arrive on the backplane.
 */
export interface Source {
  peer: VideoPeer | null;
  /** The instance of a remote source; 0 for one connected here. */
  origin: number;
  info: VideoSource;
  /** Seats here watching it, each with its own queue. */
  viewers: Map<VideoPeer, VideoOutbox>;
  /** Instances with seats watching this local source, each a viewer with a queue to its channel. */
  remote: Map<number, VideoOutbox>;
  /** While someone watches: the codec asked for in `videoStart` (here) or announced first (remote). */
  streaming: VideoCodecName | null;
  frames: TokenBucket;
}

export interface VideoOptions {
  outbox: VideoOutboxLimits;
  framesPerSecond: number;
  framesBurst: number;
  /** How long a silent instance's viewers and sources last (REDIS_URL); renewed each third of it. */
  leaseMs: number;
}

export const DEFAULT_VIDEO_OPTIONS: VideoOptions = {
  outbox: DEFAULT_VIDEO_OUTBOX,
  framesPerSecond: VideoLimits.framesPerSecond,
  framesBurst: VideoLimits.framesBurst,
  leaseMs: 3_000,
};

/** Counters for tests, metrics and the benchmark. */
export interface VideoCounters extends VideoDrops {
  received: number;
  /** Frames relayed to the viewers (once each, however many watch), and their bytes as received. */
  relayed: number;
  bytesRelayed: number;
  /** Frames of a terminal nobody watches (it should not send them). */
  unwatched: number;
  badFrames: number;
  refused: number;
  rateLimited: number;
  /** Frames across instances: published for seats elsewhere, received for seats here; refused frames and signals. */
  remoteSent: number;
  remoteReceived: number;
  remoteRefused: number;
}

/** Every counter at 0: a new instance's (or a test's). */
export function zeroVideoCounters(): VideoCounters {
  return {
    received: 0,
    relayed: 0,
    bytesRelayed: 0,
    unwatched: 0,
    badFrames: 0,
    refused: 0,
    rateLimited: 0,
    queueFull: 0,
    awaitingKey: 0,
    keyFrameRestarts: 0,
    remoteSent: 0,
    remoteReceived: 0,
    remoteRefused: 0,
  };
}

/**
 * Video of one server instance (DESIGN.md 7, docs/terminal-protocol.md "Video"): terminals announce
 * codecs (`videoCaps`), dispatcher seats apply and free, the terminal is told to start when the first
 * viewer comes and to stop when the last goes, and each frame is relayed once built to the viewers'
 * own bounded queues. The video list reaches seats as videoOnline/videoOffline and the consoles
 * through LiveState (the hub's `Videos`/`Video` pushes).
 */
export class VideoService {
  private readonly sources = new Map<number, Source>();
  /** Seats connected here, for the online/offline pushes; each with the sources it watches. */
  private readonly seats = new Map<VideoPeer, Set<Source>>();
  /** Every logged-in connection: a `videoCaps` whose rights check outlives its socket is ignored. */
  private readonly attached = new Set<VideoPeer>();
  readonly counters = zeroVideoCounters();
  /** Video of the other instances (REDIS_URL): remote sources, their frames, remote viewers. */
  readonly instances: VideoInstances;

  constructor(
    private readonly deps: AppDeps,
    readonly options: VideoOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.instances = new VideoInstances(
      {
        sources: this.sources,
        options,
        counters: this.counters,
        offline: (source) => this.offline(source),
        watch: (source) => this.watch(source),
        announce: (source, online) => this.announce(source, online),
      },
      log,
      deps.clock,
    );
  }

  /** Reads a seat's session again before it applies (talk/talkService.ts `seatScope`). */
  seatScope: (peer: VideoPeer) => Promise<boolean> = () => Promise.resolve(true);

  attach(peer: VideoPeer): void {
    this.attached.add(peer);
    if (peer.seat) this.seats.set(peer, new Set());
  }

  /** Disconnect: a terminal's video goes offline; a seat stops watching. */
  detach(peer: VideoPeer): void {
    this.attached.delete(peer);
    const watching = this.seats.get(peer);
    if (watching) {
      for (const source of watching) this.removeViewer(source, peer);
      this.seats.delete(peer);
    }
    const source = peer.user ? this.sources.get(peer.user.U_ID) : undefined;
    if (source?.peer === peer) this.offline(source);
  }

  /** A terminal's `videoCaps`: with codecs and rights it joins the video list; with none it leaves. */
  async caps(peer: VideoPeer, codecs: VideoCodecName[], seq: number): Promise<void> {
    const user = peer.user;
    if (!user) return peer.error(seq, TerminalErrors.notSupported, 'a dispatcher seat publishes no video');
    if (codecs.length === 0) {
      const current = this.sources.get(user.U_ID);
      if (current?.peer === peer) this.offline(current);
      return peer.ack(seq, { codecs: [] });
    }
    const allowed = await hasVideoRights(this.deps.db, user);
    if (!this.attached.has(peer)) return; // disconnected meanwhile: it must not join the list
    if (!allowed) return peer.error(seq, VideoErrors.notVideoMember, 'only video group members support video');
    const current = this.sources.get(user.U_ID);
    if (current?.peer === peer) {
      current.info.codecs = [...codecs];
      peer.ack(seq, { codecs });
      return this.announce(current, true);
    }
    if (current) this.offline(current);
    const info: VideoSource = { uid: user.U_ID, E_ID: user.E_ID, name: user.UserName, codecs: [...codecs] };
    const source = newSource(info, peer, 0, this.options, this.deps.clock.now());
    this.sources.set(user.U_ID, source);
    peer.ack(seq, { codecs });
    this.announce(source, true);
  }

  /** A seat's `videoApply`: acked with the codec the terminal was asked for. */
  async apply(peer: VideoPeer, uid: number, seq: number): Promise<void> {
    if (!peer.seat || !this.seats.has(peer))
      return peer.error(seq, TerminalErrors.notSupported, 'only a dispatcher seat watches video');
    if (!(await this.seatScope(peer))) return;
    const watching = this.seats.get(peer);
    if (!peer.seat || !watching) return;
    const source = this.sources.get(uid);
    if (!source || !inScope(peer.seat.scope, source.info.E_ID)) return this.refuseApply(peer, uid, seq);
    if (!source.viewers.has(peer)) {
      if (watching.size >= VideoLimits.seatStreams) {
        return peer.error(seq, TerminalErrors.invalid, `a seat watches at most ${VideoLimits.seatStreams} streams`);
      }
      source.viewers.set(peer, new VideoOutbox(peer.binary, this.options.outbox, this.counters));
      watching.add(source);
    }
    this.watch(source);
    peer.ack(seq, { uid, codec: source.streaming, name: source.info.name });
  }

  /** A seat's `videoFree`: acked whether or not it watched (freeing twice is harmless). */
  free(peer: VideoPeer, uid: number, seq: number): void {
    if (!peer.seat) return peer.error(seq, TerminalErrors.notSupported, 'only a dispatcher seat watches video');
    const source = this.sources.get(uid);
    if (source) this.removeViewer(source, peer);
    peer.ack(seq, { uid });
  }

  /** A seat's `videoList`: the terminals of its scope it can watch now (on any instance). */
  list(peer: VideoPeer, seq: number): void {
    const seat = peer.seat;
    if (!seat) return peer.error(seq, TerminalErrors.notSupported, 'only a dispatcher seat watches video');
    const videos = [...this.sources.values()]
      .filter((s) => inScope(seat.scope, s.info.E_ID))
      .map(({ info: { uid, name, codecs } }) => ({ uid, name, codecs }));
    peer.ack(seq, { videos });
  }

  /**
   * A binary kind-2 frame from a terminal: checked, rate limited, relayed to its viewers only.
   * Refused frames are counted by the peer (its flood episodes), which answers at most once an episode.
   */
  frame(peer: VideoPeer, data: Buffer, now = this.deps.clock.now()): void {
    this.counters.received += 1;
    const source = peer.user ? this.sources.get(peer.user.U_ID) : undefined;
    if (!source || source.peer !== peer) {
      this.counters.refused += 1;
      return peer.refused('videoNoRights', now, [
        VideoErrors.notVideoMember,
        'announce videoCaps (video rights needed) before frames',
      ]);
    }
    if (!source.frames.take(now)) {
      this.counters.rateLimited += 1;
      return peer.refused('videoOverRate', now, [TerminalErrors.rateLimited, 'too many video frames']);
    }
    const up = decodeVideoUp(data);
    const codec = up ? videoCodecName(up.codec) : undefined;
    if (!up || !codec || !source.info.codecs.includes(codec)) {
      this.counters.badFrames += 1;
      return peer.badFrame(
        now,
        TalkErrors.badFrame,
        'a video frame is kind 2 · codec u8 (one the terminal announced) · timestamp u32 · payload',
      );
    }
    if (source.viewers.size + source.remote.size === 0) {
      // No reply: frames still in flight after videoStop are normal; the episode's count covers them.
      this.counters.unwatched += 1;
      return peer.refused('videoUnwatched', now);
    }
    const out = encodeVideoDown({ ...up, uid: source.info.uid }, allocUnsafe);
    const key = isVideoKeyFrame(up.codec, up.payload);
    for (const outbox of source.viewers.values()) outbox.push(out, key);
    for (const outbox of source.remote.values()) outbox.push(out, key);
    this.counters.relayed += 1;
    this.counters.bytesRelayed += data.length;
  }

  /** What is open on this instance now (metrics): its own terminals' streams, the seats here watching any. */
  census(): { sources: number; streams: number; viewers: number } {
    let [sources, streams, viewers] = [0, 0, 0];
    for (const source of this.sources.values()) {
      viewers += source.viewers.size;
      if (!source.peer) continue;
      sources += 1;
      if (source.streaming !== null) streams += 1;
    }
    return { sources, streams, viewers };
  }

  /** Viewers of a terminal's stream now (tests, bench). */
  viewers(uid: number): VideoOutbox[] {
    return [...(this.sources.get(uid)?.viewers.values() ?? [])];
  }

  /** Other instances watching a terminal connected here, each one viewer (tests). */
  remoteViewers(uid: number): number {
    return this.sources.get(uid)?.remote.size ?? 0;
  }

  /** A seat's scope shrank: it stops watching terminals outside it (they are told videoStop when unwatched). */
  rescoped(peer: VideoPeer): void {
    const seat = peer.seat;
    const watching = this.seats.get(peer);
    if (!seat || !watching) return;
    for (const source of [...watching]) {
      if (inScope(seat.scope, source.info.E_ID)) continue;
      this.removeViewer(source, peer);
      peer.send({ type: 'videoOffline', uid: source.info.uid });
    }
  }

  close(): void {
    this.instances.close();
    for (const source of [...this.sources.values()]) this.offline(source);
    this.seats.clear();
    this.attached.clear();
  }

  private async refuseApply(peer: VideoPeer, uid: number, seq: number): Promise<void> {
    // Outside the seat's scope, a user is as unknown as one that does not exist: no_video, nothing more.
    const E_ID = await terminalUserEnterprise(this.deps.db, uid);
    const visible = E_ID !== undefined && peer.seat !== null && inScope(peer.seat.scope, E_ID);
    if (visible && !(await hasVideoRights(this.deps.db, { U_ID: uid, E_ID }))) {
      return peer.error(seq, VideoErrors.notVideoMember, 'only video group members support video');
    }
    peer.error(seq, VideoErrors.noVideo, 'that terminal has no video now');
  }

  private removeViewer(source: Source, viewer: VideoPeer): void {
    const outbox = source.viewers.get(viewer);
    if (!outbox) return;
    outbox.close();
    source.viewers.delete(viewer);
    this.seats.get(viewer)?.delete(source);
    this.watch(source);
  }

  /** Viewers came or went: the terminal (or the remote source's instance) starts or stops, once. */
  private watch(source: Source): void {
    const watched = source.viewers.size + source.remote.size > 0;
    if (watched === (source.streaming !== null)) return;
    const codec = watched ? (source.info.codecs[0] as VideoCodecName) : null;
    source.streaming = codec;
    if (!source.peer) return this.instances.watching(source, watched);
    source.peer.send(codec ? { type: 'videoStart', codec } : { type: 'videoStop' });
  }

  private offline(source: Source): void {
    if (this.sources.get(source.info.uid) !== source) return;
    this.sources.delete(source.info.uid);
    for (const [viewer, outbox] of source.viewers) {
      outbox.close();
      this.seats.get(viewer)?.delete(source);
    }
    source.viewers.clear();
    for (const outbox of source.remote.values()) outbox.close();
    source.remote.clear();
    this.announce(source, false);
  }

  /**
   * Seats here of the source's scope hear it at once; seats elsewhere through the backplane, consoles
   * through LiveState on every instance (both told by the instance the terminal is connected to).
   */
  private announce(source: Source, online: boolean): void {
    const { info } = source;
    const { uid, name, codecs } = info;
    for (const seat of this.seats.keys()) {
      if (!seat.seat || !inScope(seat.seat.scope, info.E_ID)) continue;
      seat.send(online ? { type: 'videoOnline', uid, name, codecs } : { type: 'videoOffline', uid });
    }
    if (!source.peer) return;
    this.instances.announced(source, online);
    this.deps.realtime.live.setVideo(info, online);
    this.log.info({ U_ID: uid, E_ID: info.E_ID, codecs, online }, 'terminal video');
  }
}
