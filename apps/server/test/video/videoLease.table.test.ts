import type { VideoSource } from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import type { VideoSignal } from '../../src/video/videoBackplane.js';
import { VideoInstances, newSource, type VideoHost, type VideoLink } from '../../src/video/videoInstances.js';
import { DEFAULT_VIDEO_OPTIONS, zeroVideoCounters, type Source, type VideoPeer } from '../../src/video/videoService.js';

// Issue 50, goal 2: the video instance lease (DESIGN.md 9) as a table in fake time, with the
// production lease of 3 s. Every signal of another instance renews its lease; this instance says
// `alive` each third of the lease and, at that tick, forgets what a silent instance held: its
// terminals (remote sources go offline) and its seats (their viewer queues on our terminals close).
// Each row: what instance B says at which time (ms) → what happened here, and when.
const LEASE = 3_000;
const B = 7;
/** A terminal connected to B, which seats here may watch. */
const REMOTE_UID = 1;
/** A terminal connected here, which seats on B may watch. */
const LOCAL_UID = 2;

type Said = [at: number, signal: VideoSignal];
interface Row {
  rule: string;
  said: Said[];
  /** Time moves to here. */
  until: number;
  /** What happened here, in order: `offline 1` (B's terminal forgotten), `unwatched 2` (B's viewer gone), `hello`. */
  happened: [at: number, what: string][];
}

const remote: VideoSource = { uid: REMOTE_UID, E_ID: 1, name: 'B terminal', codecs: ['h264'] };
const online: VideoSignal = { kind: 'online', source: remote };
const alive = (sources: number[], watching: number[] = []): VideoSignal => ({ kind: 'alive', sources, watching });
const want: VideoSignal = { kind: 'want', uid: LOCAL_UID };
const each = (ms: number, from: number, to: number, signal: VideoSignal): Said[] =>
  Array.from({ length: Math.floor((to - from) / ms) + 1 }, (_, i) => [from + i * ms, signal] as Said);

const ROWS: Row[] = [
  {
    rule: 'an instance silent after announcing a terminal loses it at the tick a lease later',
    said: [[0, online]],
    until: 10_000,
    happened: [[LEASE, `offline ${REMOTE_UID}`]],
  },
  {
    rule: 'alive every third of the lease keeps its terminal',
    said: [[0, online], ...each(1_000, 1_000, 20_000, alive([REMOTE_UID]))],
    until: 20_000,
    happened: [],
  },
  {
    rule: 'a renewal at 2.5 s holds the terminal to 5.5 s; the tick at 6 s forgets it',
    said: [
      [0, online],
      [2_500, alive([REMOTE_UID])],
    ],
    until: 10_000,
    happened: [[6_000, `offline ${REMOTE_UID}`]],
  },
  {
    rule: 'a lease is still held 1 ms before it ends',
    said: [
      [0, online],
      [2_001, alive([REMOTE_UID])],
    ],
    until: 5_000,
    happened: [],
  },
  {
    rule: 'any signal renews the lease, a want as much as an alive',
    said: [
      [0, online],
      [2_900, want],
    ],
    until: 10_000,
    // The want also made B a viewer of our terminal: both of B's holdings end at the same tick.
    happened: [
      [6_000, `unwatched ${LOCAL_UID}`],
      [6_000, `offline ${REMOTE_UID}`],
    ],
  },
  {
    rule: 'an alive that no longer lists the terminal ends it at once, lease or not',
    said: [
      [0, online],
      [1_500, alive([])],
    ],
    until: 5_000,
    happened: [[1_500, `offline ${REMOTE_UID}`]],
  },
  {
    rule: 'seats on a silent instance stop watching our terminal a lease after it last spoke',
    said: [[500, want]],
    until: 10_000,
    happened: [[4_000, `unwatched ${LOCAL_UID}`]],
  },
  {
    rule: 'seats on an instance that keeps saying it watches keep watching',
    said: [[0, want], ...each(1_000, 1_000, 20_000, alive([], [LOCAL_UID]))],
    until: 20_000,
    happened: [],
  },
  {
    rule: 'a terminal heard of without its announcement asks for announcements, at most once a lease',
    said: [
      [100, alive([9])],
      [1_100, alive([9])],
      [3_100, alive([9])],
      [3_101, alive([9])],
    ],
    until: 4_000,
    happened: [
      [100, 'hello'],
      [3_101, 'hello'],
    ],
  },
];

/** VideoInstances on a fake link and a host that records what the lease rules did. */
function instances(clock: FakeClock) {
  const happened: [number, string][] = [];
  const published: VideoSignal[] = [];
  const sources = new Map<number, Source>();
  const host: VideoHost = {
    sources,
    options: { ...DEFAULT_VIDEO_OPTIONS, leaseMs: LEASE },
    counters: zeroVideoCounters(),
    offline: (source) => {
      sources.delete(source.info.uid);
      happened.push([clock.now(), `offline ${source.info.uid}`]);
    },
    watch: (source) => {
      if (source.peer && source.remote.size === 0) happened.push([clock.now(), `unwatched ${source.info.uid}`]);
    },
    announce: () => undefined,
  };
  const link: VideoLink = {
    leaseMs: LEASE,
    publish: (signal) => {
      published.push(signal);
      if (signal.kind === 'hello') happened.push([clock.now(), 'hello']);
    },
    publishFrame: () => Promise.resolve(),
  };
  const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
  const video = new VideoInstances<VideoLink>(host, log, clock);
  const peer = { user: { U_ID: LOCAL_UID, E_ID: 1, UserName: 'here' }, seat: null } as unknown as VideoPeer;
  const info: VideoSource = { uid: LOCAL_UID, E_ID: 1, name: 'here', codecs: ['h264'] };
  sources.set(LOCAL_UID, newSource(info, peer, 0, host.options, clock.now()));
  video.share(link);
  // Joining says hello once; only what the rules did afterwards is the row's outcome.
  happened.length = 0;
  return { video, happened, published, sources };
}

describe('video instance leases, in fake time', () => {
  it.each(ROWS)('$rule', async ({ said, until, happened }) => {
    const clock = new FakeClock(0);
    const run = instances(clock);
    for (const [at, signal] of said) {
      await clock.advance(at - clock.now());
      run.video.signal(B, signal);
    }
    await clock.advance(until - clock.now());
    expect(run.happened).toEqual(happened);
    run.video.close();
  });

  it('renews this instance’s own lease each third of it, listing its terminals and what it watches', async () => {
    const clock = new FakeClock(0);
    const run = instances(clock);
    run.video.signal(B, online);
    const watched = run.sources.get(REMOTE_UID);
    if (!watched) throw new Error('B’s terminal is known here');
    watched.streaming = 'h264';
    run.published.length = 0;
    for (let at = 1_000; at <= 2 * LEASE; at += 1_000) {
      await clock.advance(1_000);
      run.video.signal(B, alive([REMOTE_UID]));
    }
    const renewals = Array.from({ length: 6 }, () => alive([LOCAL_UID], [REMOTE_UID]));
    expect(run.published).toEqual(renewals);
    // Stopping frees what seats here watched on B at once, and renews nothing more.
    run.video.close();
    await clock.advance(2 * LEASE);
    expect(run.published).toEqual([...renewals, { kind: 'none', uid: REMOTE_UID }]);
  });
});
