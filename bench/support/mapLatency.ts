// Fix time to drawn frame on the map page (bench/map.ts).
import type { Page } from 'playwright-core';
import type { HubSocketWatch } from './hubSocketWatch.js';
import { percentile, round } from './mapFigures.js';
import type { ProbeWindow } from './mapProbe.js';

/**
 * Fix time (the load's clock, same machine) to the first frame drawn after the users' tiles that
 * hold it were loaded: the delta reaches the page, the next batch to the tile worker carries it
 * (MapUsers says when that batch was sent and its tiles reloaded), one of the users' tiles loads
 * after that, and the frame after that draws it. For every position of every delta (`all`) and for
 * the newest of each delta (`newest`, the figure of earlier runs). Also the positions the page took a second.
 */
export async function latency(page: Page, hub: HubSocketWatch, seconds: number) {
  const start = Date.now();
  hub.arrivals = [];
  hub.bytesWhileTiming = 0;
  hub.timing = true;
  const drawn = await page.evaluate(async (ms) => {
    const map = (window as unknown as ProbeWindow).mapOf();
    const probe = (window as unknown as ProbeWindow).mapProbe;
    const tiles: number[] = [];
    const renders: number[] = [];
    // Each batch to the tile worker: when it was sent, when its tiles were reloaded (the worker had
    // clustered it), and when the users' tiles in view were all loaded again.
    const batches: { sentAt: number; refreshedAt: number }[] = [];
    const settled: number[] = [];
    const unsubscribe = map.getContainer().mapUsers!.onRefreshed((sentAt) => {
      batches.push({ sentAt, refreshedAt: Date.now() });
    });
    map.on('data', (event) => {
      if (event.sourceId !== 'users' || event.dataType !== 'source' || !event.tile) return;
      tiles.push(Date.now());
      if ((map as unknown as { isSourceLoaded(id: string): boolean }).isSourceLoaded('users')) settled.push(Date.now());
    });
    map.on('render', () => renders.push(Date.now()));
    await new Promise((r) => setTimeout(r, ms));
    unsubscribe();
    return { tiles, renders, batches, settled, aborted: probe.usersUpdates.aborted, errors: probe.usersUpdates.errors };
  }, seconds * 1000);
  hub.timing = false;
  const { tiles, renders, batches, settled } = drawn;
  const all: number[] = [];
  const newest: number[] = [];
  // Fix time to the delta's arrival at the page: the server's and the network's share.
  const reached: number[] = [];
  let records = 0;
  for (const arrival of hub.arrivals) {
    records += arrival.times.length;
    if (arrival.at < start || arrival.times.length === 0) continue;
    for (const time of arrival.times) reached.push(arrival.at - time);
    const batch = batches.find((candidate) => candidate.sentAt >= arrival.at);
    const loaded = batch && tiles.find((t) => t >= batch.refreshedAt);
    const frame = loaded === undefined ? undefined : renders.find((t) => t >= loaded);
    if (frame === undefined) continue;
    for (const time of arrival.times) all.push(frame - time);
    newest.push(frame - arrival.times.reduce((a, b) => Math.max(a, b), 0));
  }
  const pick = (values: number[], p: number) => (values.length === 0 ? null : percentile(values, p));
  const settleMs = batches.map(({ refreshedAt }) => (settled.find((at) => at >= refreshedAt) ?? NaN) - refreshedAt);
  // From a batch reaching the page to its tiles reloaded: the tile worker clustering every user.
  const workerMs = batches.map(({ sentAt, refreshedAt }) => refreshedAt - sentAt);
  const measured = settleMs.filter((ms) => !Number.isNaN(ms));
  return {
    sourceUpdates: {
      batches: batches.length,
      tilesLoaded: tiles.length,
      workerMsP50: pick(workerMs, 50),
      workerMsMax: pick(workerMs, 100),
      settleMsMax: measured.length > 0 ? Math.max(...measured) : null,
      sentAt: batches.map((batch) => batch.sentAt - start),
      // Since the page opened: tile loads MapLibre abandoned, and the map's first errors.
      abortedSinceOpening: drawn.aborted,
      errors: drawn.errors,
    },
    pushes: hub.arrivals.length,
    positionsPerSecond: Math.round(records / seconds),
    hubProtocol: hub.protocol,
    wireBytes: hub.bytesWhileTiming,
    changes: records,
    // Bytes the page's hub connection received while timing, per position change it carried.
    wireBytesPerChangedFix: records === 0 ? null : round(hub.bytesWhileTiming / records),
    all: { samples: all.length, p50: pick(all, 50), p95: pick(all, 95), max: pick(all, 100) },
    fixToPage: { p50: pick(reached, 50), p95: pick(reached, 95) },
    newestOfPush: { samples: newest.length, p50: pick(newest, 50), p95: pick(newest, 95), max: pick(newest, 100) },
  };
}

/** Fix to frame and the hub's bytes while timing (latency). */
export type MapLatency = Awaited<ReturnType<typeof latency>>;
