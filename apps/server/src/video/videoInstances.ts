import { isVideoKeyFrame, videoCodecName, type VideoSource } from '@intercom/contract';
import { decodeVideoDown } from '@intercom/terminal-client';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock, ClockTimer } from '../core/clock.js';
import { TokenBucket } from '../core/tokenBucket.js';
import type { BinarySink } from '../http/webSocketFrame.js';
import type { VideoBackplane, VideoSignal } from './videoBackplane.js';
import { VideoOutbox } from './videoOutbox.js';
import type { Source, VideoCounters, VideoOptions, VideoPeer } from './videoService.js';

/** A source as VideoService keeps it: connected here (`peer`, origin 0) or to instance `origin`. */
export function newSource(
  info: VideoSource,
  peer: VideoPeer | null,
  origin: number,
  options: VideoOptions,
  now: number,
): Source {
  return {
    peer,
    origin,
    info,
    viewers: new Map(),
    remote: new Map(),
    streaming: null,
    frames: new TokenBucket(options.framesPerSecond, options.framesBurst, now),
  };
}

/** What VideoInstances needs of the VideoService of its instance. */
export interface VideoHost {
  /** Every source this instance knows, its own and the other instances' (one map, keyed by uid). */
  readonly sources: Map<number, Source>;
  readonly options: VideoOptions;
  readonly counters: VideoCounters;
  offline(source: Source): void;
  /** Viewers came or went: start or stop the stream, once. */
  watch(source: Source): void;
  /** Tells the seats here (and, for a source of this instance, everyone else). */
  announce(source: Source, online: boolean): void;
}

/** What VideoInstances sends through (a VideoBackplane; a test's fake). */
export interface VideoLink {
  /** How long a silent instance's viewers and sources last; renewed each third of it. */
  readonly leaseMs: number;
  publish(signal: VideoSignal): void;
  publishFrame(to: number, frame: Buffer): Promise<void>;
}

/**
 * Video across instances (REDIS_URL, DESIGN.md 9). Terminals of other instances are sources here
 * like this instance's own, without a peer: seats apply, free and list them the same way. Their
 * instance counts this one as ONE viewer while any seat here watches (`want` ... `none`), so the
 * terminal hears `videoStart` once and `videoStop` when the last viewer anywhere leaves; each remote
 * viewer is a VideoOutbox whose socket is this instance's frame channel, so it starts at a key frame
 * and is bounded by the bytes Redis has not yet taken. An instance that stops speaking for a lease
 * loses its viewers (its terminals stop streaming to it) and its sources (the seats here hear
 * videoOffline).
 */
export class VideoInstances<Link extends VideoLink = VideoBackplane> {
  private backplane: Link | null = null;
  private timer: ClockTimer | null = null;
  private helloAt = -Infinity;
  /** When each other instance last said anything (its lease), on `clock`. */
  private readonly heard = new Map<number, number>();

  constructor(
    private readonly host: VideoHost,
    private readonly log: FastifyBaseLogger,
    /** The leases' time (AppDeps.clock): renewal each third of the lease, expiry after a silent lease. */
    private readonly clock: Clock,
  ) {}

  get shared(): Link | null {
    return this.backplane;
  }

  /** Joins the backplane: asks the others for their sources and renews this instance's lease. */
  share(backplane: Link): void {
    this.backplane = backplane;
    backplane.publish({ kind: 'hello' });
    this.timer = this.clock.interval(() => this.tick(), backplane.leaseMs / 3);
  }

  /** A source of this instance came, changed or went. */
  announced(source: Source, online: boolean): void {
    const uid = source.info.uid;
    this.backplane?.publish(online ? { kind: 'online', source: source.info } : { kind: 'offline', uid });
  }

  /** The first seat here watches a remote source, or the last stopped. */
  watching(source: Source, watched: boolean): void {
    this.backplane?.publish({ kind: watched ? 'want' : 'none', uid: source.info.uid });
  }

  /** A signal of instance `origin` (never this one): any signal renews its lease. */
  signal(origin: number, signal: VideoSignal): void {
    this.heard.set(origin, this.clock.now());
    const { sources } = this.host;
    switch (signal.kind) {
      case 'online':
        return this.online(origin, signal.source);
      case 'offline': {
        const source = sources.get(signal.uid);
        if (source && !source.peer && source.origin === origin) this.host.offline(source);
        return;
      }
      case 'want':
        return this.addViewer(origin, signal.uid);
      case 'none':
        return this.removeViewer(origin, signal.uid);
      case 'alive':
        return this.alive(origin, signal.sources, signal.watching);
      case 'hello':
        for (const source of sources.values()) if (source.peer) this.announced(source, true);
    }
  }

  /** A frame of a remote source for the seats here watching it. */
  frame(origin: number, frame: Buffer): void {
    const { counters } = this.host;
    const down = decodeVideoDown(frame);
    const source = down ? this.host.sources.get(down.uid) : undefined;
    const codec = down ? videoCodecName(down.codec) : undefined;
    if (!down || !source || source.peer || source.origin !== origin || !codec || !source.info.codecs.includes(codec)) {
      counters.remoteRefused += 1;
      return;
    }
    counters.remoteReceived += 1;
    const key = isVideoKeyFrame(down.codec, down.payload);
    for (const outbox of source.viewers.values()) outbox.push(frame, key);
  }

  /** A message on the backplane that is not a signal or frame of ours: counted and logged, nothing changes. */
  refused(error: unknown): void {
    this.host.counters.remoteRefused += 1;
    this.log.warn({ err: error }, 'video message from another instance refused');
  }

  /** Stopping: the terminals elsewhere that seats here watch are freed now, not a lease later. */
  close(): void {
    this.timer?.cancel();
    this.timer = null;
    for (const source of this.host.sources.values()) {
      if (!source.peer && source.streaming !== null) this.watching(source, false);
    }
  }

  /**
   * Each third of the lease: say which sources are here and which remote ones are watched (a lost
   * want, none, online or offline is repaired by the next one), and forget silent instances.
   */
  private tick(now = this.clock.now()): void {
    const backplane = this.backplane;
    if (!backplane) return;
    const sources: number[] = [];
    const watching: number[] = [];
    for (const source of [...this.host.sources.values()]) {
      if (source.peer) {
        sources.push(source.info.uid);
        for (const origin of source.remote.keys()) {
          if (!this.leaseHolds(origin, now)) this.removeViewer(origin, source.info.uid);
        }
      } else if (!this.leaseHolds(source.origin, now)) {
        this.host.offline(source);
      } else if (source.streaming !== null) {
        watching.push(source.info.uid);
      }
    }
    backplane.publish({ kind: 'alive', sources, watching });
  }

  private alive(origin: number, sources: number[], watching: number[]): void {
    const listed = new Set(sources);
    const watched = new Set(watching);
    let unknown = listed.size;
    for (const source of [...this.host.sources.values()]) {
      const uid = source.info.uid;
      if (!source.peer && source.origin === origin) {
        if (listed.has(uid)) unknown -= 1;
        else this.host.offline(source);
      } else if (source.peer && source.remote.has(origin) && !watched.has(uid)) {
        this.removeViewer(origin, uid);
      }
    }
    for (const uid of watched) this.addViewer(origin, uid);
    // A source this instance never heard announced (a lost online): ask again, at most once a lease.
    const now = this.clock.now();
    if (unknown > 0 && this.backplane && now - this.helloAt > this.backplane.leaseMs) {
      this.helloAt = now;
      this.backplane.publish({ kind: 'hello' });
    }
  }

  /** Whether instance `origin` spoke within the lease. */
  private leaseHolds(origin: number, now: number): boolean {
    return now - (this.heard.get(origin) ?? -Infinity) < (this.backplane?.leaseMs ?? 0);
  }

  private online(origin: number, info: VideoSource): void {
    const current = this.host.sources.get(info.uid);
    // The terminal is connected here: this instance's word on it wins until it goes.
    if (current?.peer) return;
    if (current?.origin === origin) {
      if (JSON.stringify(current.info) === JSON.stringify(info)) return;
      current.info = info;
      return this.host.announce(current, true);
    }
    if (current) this.host.offline(current);
    const source = newSource(info, null, origin, this.host.options, this.clock.now());
    this.host.sources.set(info.uid, source);
    this.host.announce(source, true);
  }

  private addViewer(origin: number, uid: number): void {
    const source = this.host.sources.get(uid);
    if (!source?.peer || source.remote.has(origin)) return;
    source.remote.set(origin, new VideoOutbox(this.sink(origin), this.host.options.outbox, this.host.counters));
    this.host.watch(source);
  }

  private removeViewer(origin: number, uid: number): void {
    const source = this.host.sources.get(uid);
    const outbox = source?.peer ? source.remote.get(origin) : undefined;
    if (!source || !outbox) return;
    outbox.close();
    source.remote.delete(origin);
    this.host.watch(source);
  }

  /** A remote viewer's socket: the frame channel of its instance; written once Redis has it. */
  private sink(origin: number): BinarySink {
    return {
      send: (frame, written) => {
        const backplane = this.backplane;
        if (!backplane || typeof frame === 'string') return written();
        this.host.counters.remoteSent += 1;
        backplane.publishFrame(origin, frame).then(
          () => written(),
          (error: unknown) => {
            // The queue stays usable: the Redis connection comes back, the viewer's lease decides.
            this.log.warn({ err: error }, 'video frame to another instance');
            written();
          },
        );
      },
    };
  }
}
