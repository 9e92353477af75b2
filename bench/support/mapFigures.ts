// The figures bench/map.ts prints, each with its goal and whether it was met.
import type { MapLatency } from './mapLatency.js';
import type { MainThread, MapMemory } from './mapMeasures.js';

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The median of the plain openings' first frame with every user (an opening that never drew them counts as endless). */
export function plainOpeningVerdict(openings: Record<string, unknown>[]) {
  const times = openings.map((marks) =>
    typeof marks.allUsersFirstFrame === 'number' ? marks.allUsersFirstFrame : Infinity,
  );
  const median = percentile(times, 50);
  return {
    value: Number.isFinite(median) ? median : null,
    goal: `<= 2000 (median of ${openings.length} openings without Playwright, each to the first frame with every user)`,
    met: median <= 2000,
  };
}

/** The longest main-thread task of the openings' medians, up to each one's first frame with every user. */
export function longestTaskVerdict(openings: Record<string, unknown>[]) {
  const longest = openings.map((marks) =>
    Math.max(0, ...((marks.longTasks as string[] | undefined) ?? []).map((task) => Number(task.split('+')[1]))),
  );
  const median = percentile(longest, 50);
  return {
    value: median,
    goal: `<= 50 (median of ${openings.length} openings: the longest task up to the first frame with every user)`,
    met: median <= 50,
  };
}

/** What one run of bench/map.ts measured, the figures are made of. */
export interface MapRun {
  users: number;
  /** Seconds of each measuring phase (MAP_BENCH_SECONDS). */
  seconds: number;
  online: number;
  drawnUsers: number;
  views: Record<string, unknown>;
  thread: MainThread;
  /** Main-thread tasks from opening the page to the first frame with every user, ms. */
  loadTasks: number[];
  latencyMs: MapLatency;
  snapshotBytes: number;
  firstFrameMs: number | null;
  plainOpenings: Record<string, unknown>[];
  /** The same openings on the map before any user was online (issue 52, goal 6). */
  emptyOpenings: Record<string, unknown>[];
  /** The same openings on the map of an enterprise with no user while the load runs (reported). */
  emptyUnderLoad: Record<string, unknown>[];
  /** CPU ms of the page's renderer process (main thread and workers) while `latencyMs` was measured. */
  rendererCpuMs: number;
  returningOpenings: Record<string, unknown>[];
  memory: MapMemory | undefined;
}

/** Each figure of a run with its goal and whether it was met. */
export function mapFigures(run: MapRun) {
  const { users, seconds, online, drawnUsers, views, thread, loadTasks, latencyMs, snapshotBytes, firstFrameMs } = run;
  const { plainOpenings, emptyOpenings, emptyUnderLoad, returningOpenings, memory, rendererCpuMs } = run;
  const medianFirstRender = (openings: Record<string, unknown>[]) =>
    openings.length > 0
      ? percentile(
          openings.map((marks) => (typeof marks.firstRender === 'number' ? marks.firstRender : Infinity)),
          50,
        )
      : Infinity;
  const emptyFirstFrame = medianFirstRender(emptyOpenings);
  const emptyUnderLoadFirstFrame = medianFirstRender(emptyUnderLoad);
  const allUsersFrames = plainOpenings.map((marks) =>
    typeof marks.allUsersFirstFrame === 'number' ? marks.allUsersFirstFrame : Infinity,
  );
  const allUsersFrame = allUsersFrames.length > 0 ? percentile(allUsersFrames, 50) : Infinity;
  const afterEmpty = allUsersFrame - emptyFirstFrame;
  const afterEmptyUnderLoad = allUsersFrame - emptyUnderLoadFirstFrame;
  const perThousand = latencyMs.changes > 0 ? round((rendererCpuMs / latencyMs.changes) * 1000, 2) : null;
  const defaultView = views.default as { ratio: number };
  const verdict = <T extends number | null>(value: T, goal: string, met: boolean) => ({
    value,
    goal,
    met: value === null ? false : met,
  });
  const figures = {
    fpsRatioDefaultView: verdict(defaultView.ratio, '>= 0.5', defaultView.ratio >= 0.5),
    fpsRatioStreetView: { value: (views.street as { ratio: number }).ratio, goal: 'reported' },
    mainThreadCpuMsPerSecond: verdict(thread.cpuMsPerSecond, '<= 100', thread.cpuMsPerSecond <= 100),
    mainThreadBusyMsPerSecond: { value: thread.msPerSecond, goal: 'reported (wall time: includes other processes)' },
    longestTaskWhileUpdatingMs: verdict(thread.longestTaskMs, '<= 50', thread.longestTaskMs <= 50),
    longTasksOpeningPageMs: verdict(
      Math.max(0, ...loadTasks),
      '<= 50 (every task from opening the page to the first frame with every user)',
      loadTasks.every((ms) => ms <= 50),
    ),
    wireBytesPerChangedFix: verdict(
      latencyMs.wireBytesPerChangedFix,
      `<= 24 (${latencyMs.hubProtocol})`,
      (latencyMs.wireBytesPerChangedFix ?? Infinity) <= 24,
    ),
    snapshotBytes: verdict(
      snapshotBytes,
      '<= 2,000,000 at 50,000 users (40 bytes a user)',
      snapshotBytes <= 40 * users,
    ),
    fixToFrameP95Ms: {
      ...verdict(latencyMs.all.p95 ?? null, '<= 1000', (latencyMs.all.p95 ?? Infinity) <= 1000),
      ...(latencyMs.all.samples === 0
        ? { note: `no delta was drawn within the ${seconds} s window: the users source finished no update after one` }
        : {}),
    },
    snapshotFirstFrameMs: {
      ...verdict(
        firstFrameMs,
        '<= 2000 (from opening the page to the first frame with every user)',
        (firstFrameMs ?? Infinity) <= 2000,
      ),
      ...(firstFrameMs === null
        ? { note: `the source held ${drawnUsers} of ${online} users when the bench stopped waiting` }
        : {}),
    },
    // The same opening in a browser no DevTools client records (MAP_BENCH_PLAIN_OPENING): Playwright's
    // Network domain copies every hub frame on the page's cores, which a dispatcher's browser does not.
    ...(plainOpenings.length > 0 ? { snapshotFirstFrameWithoutPlaywrightMs: plainOpeningVerdict(plainOpenings) } : {}),
    ...(returningOpenings.length > 0
      ? {
          snapshotFirstFrameReturningMs: plainOpeningVerdict(returningOpenings),
          longestTaskOpeningReturningMs: longestTaskVerdict(returningOpenings),
        }
      : {}),
    heapGrowthPercent: memory
      ? verdict(
          memory.growthPercent,
          `<= 10 over 600 s (this run: ${memory.seconds} s)`,
          memory.growthPercent <= 10 && memory.seconds >= 600,
        )
      : { value: null, goal: '<= 10 over 600 s', met: false, note: 'no soak in this run' },
    consoleCpuMsPer1000Changes: verdict(
      perThousand,
      "<= 10 (the page's renderer process, main thread and workers, per 1,000 position changes received)",
      (perThousand ?? Infinity) <= 10,
    ),
    emptyMapFirstFrameMs: {
      value: Number.isFinite(emptyFirstFrame) ? emptyFirstFrame : null,
      goal: `reported (median of ${emptyOpenings.length} openings without Playwright before any user was online)`,
    },
    snapshotFirstFrameAfterEmptyMapMs: verdict(
      Number.isFinite(afterEmpty) ? afterEmpty : null,
      "<= 1000 (median first frame with every user, less the empty map's first frame, both without Playwright)",
      afterEmpty <= 1000,
    ),
    emptyMapUnderLoadFirstFrameMs: {
      value: Number.isFinite(emptyUnderLoadFirstFrame) ? emptyUnderLoadFirstFrame : null,
      goal: `reported (median of ${emptyUnderLoad.length} openings without Playwright of an enterprise with no user, under the same load)`,
    },
    snapshotFirstFrameAfterEmptyMapUnderLoadMs: {
      value: Number.isFinite(afterEmptyUnderLoad) ? afterEmptyUnderLoad : null,
      goal: "reported (the first frame with every user, less the empty map's under the same load: the users' own share)",
    },
    positionsPerSecondDelivered: {
      value: latencyMs.positionsPerSecond,
      goal: `${users} (every user once a second)`,
      met: latencyMs.positionsPerSecond >= users * 0.9,
    },
  };
  return figures;
}
