import { HubMethods } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../src/bus/eventBus.js';
import { FakeClock } from '../../src/core/clock.js';
import { HubConnection, type ConnectionHost } from '../../src/hub/hubConnection.js';
import { hubOptionsOf } from '../../src/hub/hubOptions.js';
import { RS } from '../../src/hub/hubProtocol.js';
import { LiveFeeds } from '../../src/hub/liveFeeds.js';
import { ScopeFeed } from '../../src/hub/scopeFeed.js';
import type { TransportSink } from '../../src/hub/transports.js';
import { LiveState } from '../../src/live/liveState.js';

// Issue 50, goal 2: the hub's coalescing rule as a table in fake time. A scope pushes at most once
// per push interval (the first change after a quiet interval at once, the rest at the interval's end,
// the latest value per user winning); a connection that is not ready for a push holds it, merged by
// key, and gets what it held as one push the moment it is ready (liveFeeds.ts), then the scope's
// next push on time. Each row: events at times (ms from the start) → the GPS pushes each connection
// is handed, at which time, with which user at which position (`U<id>@<lat>`).
const INTERVAL = 250;
const E_ID = 1;

type Event =
  | [at: number, kind: 'fix', U_ID: number, lat: number]
  | [at: number, kind: 'notReady' | 'ready', connection: 'A' | 'B'];

interface Row {
  name: string;
  events: Event[];
  /** Per connection: [time, users of the push] for every GPS push, in order. */
  pushes: Record<'A' | 'B', [number, string[]][]>;
}

/** A steady stream: user 1 moves every 10 ms from 0 to 990 ms (lat = the time). */
const stream: Event[] = Array.from({ length: 100 }, (_, i): Event => [i * 10, 'fix', 1, i * 10]);

/** What the stream is pushed as: once per interval, the latest position each time. */
const streamPushes: [number, string[]][] = [
  [0, ['U1@0']],
  [250, ['U1@240']],
  [500, ['U1@490']],
  [750, ['U1@740']],
  [1000, ['U1@990']],
];

/** Both connections are handed the same pushes. */
const both = (pushes: [number, string[]][]): Row['pushes'] => ({ A: pushes, B: pushes });

const TABLE: Row[] = [
  {
    name: 'a lone change goes at once',
    events: [[0, 'fix', 1, 1]],
    pushes: both([[0, ['U1@1']]]),
  },
  {
    name: 'a burst within an interval is one push at its end, the latest position per user winning',
    events: [
      [0, 'fix', 1, 1],
      [10, 'fix', 1, 2],
      [20, 'fix', 2, 5],
      [100, 'fix', 1, 3],
    ],
    pushes: both([
      [0, ['U1@1']],
      [250, ['U1@3', 'U2@5']],
    ]),
  },
  {
    name: 'a steady stream is pushed once per interval, no more',
    events: stream,
    pushes: both(streamPushes),
  },
  {
    name: 'a connection that is not ready holds the pushes it misses and gets them as one when ready',
    events: [
      [0, 'fix', 1, 1],
      [100, 'notReady', 'B'],
      [300, 'fix', 1, 2],
      [600, 'fix', 1, 3],
      [610, 'fix', 2, 7],
      [700, 'ready', 'B'],
    ],
    pushes: {
      A: [
        [0, ['U1@1']],
        [300, ['U1@2']],
        [600, ['U1@3']],
        [850, ['U2@7']],
      ],
      // The held push (the scope's pushes of 300 and 600, merged) when B is ready, then the scope's
      // next push on time: one more than the scope sent in that interval, never a backlog.
      B: [
        [0, ['U1@1']],
        [700, ['U1@3']],
        [850, ['U2@7']],
      ],
    },
  },
  {
    name: 'a connection not ready through a stream gets one push when ready, then the interval again',
    events: [[0, 'notReady', 'B'], ...stream, [620, 'ready', 'B']],
    pushes: {
      A: streamPushes,
      B: [
        [620, ['U1@490']],
        [750, ['U1@740']],
        [1000, ['U1@990']],
      ],
    },
  },
  {
    name: 'a connection that is ready again before the next push misses nothing and gets nothing extra',
    events: [
      [0, 'fix', 1, 1],
      [10, 'notReady', 'B'],
      [100, 'fix', 1, 2],
      [200, 'ready', 'B'],
    ],
    pushes: both([
      [0, ['U1@1']],
      [250, ['U1@2']],
    ]),
  },
];

/** A transport whose readiness the row sets; it records the GPS pushes written to it. */
class TableSink implements TransportSink {
  readonly kind = 'WebSockets';
  open = true;
  readonly pushes: [number, string[]][] = [];

  constructor(private readonly clock: FakeClock) {}

  buffered(): number {
    return 0;
  }

  ready(): boolean {
    return this.open;
  }

  write(payload: string): void {
    for (const record of payload.split(RS)) {
      if (!record.includes('"type":"GPS"')) continue;
      const parsed = JSON.parse(record) as { arguments: { data: { U_ID: number; lat: number }[] }[] };
      const data = parsed.arguments[0]?.data ?? [];
      this.pushes.push([this.clock.now() - START, data.map((r) => `U${r.U_ID}@${r.lat}`).sort()]);
    }
  }

  end(): void {
    this.open = false;
  }
}

const START = Date.UTC(2026, 0, 1);

function connectionOn(clock: FakeClock, name: string): { connection: HubConnection; sink: TableSink } {
  const host: ConnectionHost = {
    options: hubOptionsOf(),
    clock,
    dispatch: () => undefined,
    connected: () => undefined,
    disposed: () => undefined,
  };
  const principal = {
    session: { S_ID: 1, A_ID: 1, E_ID, WorkingE_ID: null },
    account: { A_ID: 1, E_ID, LoginName: name, Name: name, Role: 'admin' as const },
    scope: { rootId: E_ID, enterpriseIds: [E_ID] },
  };
  const connection = new HubConnection(name, name, principal, host);
  const sink = new TableSink(clock);
  connection.attach(sink);
  connection.receive(`{"protocol":"json","version":1}${RS}`);
  return { connection, sink };
}

async function run(row: Row): Promise<Record<'A' | 'B', [number, string[]][]>> {
  const clock = new FakeClock(START);
  const live = new LiveState(
    new InProcessEventBus((error) => {
      throw error;
    }),
    { clock, staleSweepMs: 3_600_000 },
  );
  const scope = new ScopeFeed([E_ID], live, INTERVAL, clock);
  const stop = live.onChange((change) => scope.apply(change));
  const ends = { A: connectionOn(clock, 'A'), B: connectionOn(clock, 'B') };
  for (const { connection } of Object.values(ends)) {
    const feeds = new LiveFeeds(
      connection,
      () => scope,
      () => undefined,
      clock,
    );
    feeds.subscribe(HubMethods.FuncGPS, null);
    scope.members.add(feeds);
  }
  for (const event of [...row.events].sort((x, y) => x[0] - y[0])) {
    await clock.advance(START + event[0] - clock.now());
    if (event[1] === 'fix') {
      const [, , U_ID, lat] = event;
      live.reportPosition({ E_ID, U_ID, lat, lon: 1, time: clock.now(), interval: 10 });
    } else {
      const end = ends[event[2]];
      end.sink.open = event[1] === 'ready';
      // A socket that drains tells its connection (WebSocketSink on 'drain').
      if (end.sink.open) end.connection.pump();
    }
  }
  await clock.advance(10 * INTERVAL);
  stop();
  scope.dispose();
  live.close();
  return { A: ends.A.sink.pushes, B: ends.B.sink.pushes };
}

describe('hub push coalescing, in fake time', () => {
  it.each(TABLE)('$name', async (row) => {
    expect(await run(row)).toEqual(row.pushes);
  });

  it('never hands a connection two pushes within an interval but for one held push', async () => {
    for (const row of TABLE) {
      const pushes = await run(row);
      for (const times of Object.values(pushes).map((list) => list.map(([at]) => at))) {
        // Pushes closer than the interval: only the held push and the scope's next one.
        const close = times.filter((at, i) => i > 0 && at - (times[i - 1] ?? 0) < INTERVAL);
        expect(close.length, row.name).toBeLessThanOrEqual(1);
      }
    }
  });
});
