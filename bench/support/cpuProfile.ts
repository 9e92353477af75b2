import type { CDPSession } from 'playwright-core';
import { attachWorkers, onWorkerStart, type WorkerSend } from './workerTargets.js';

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The `count` functions with the most self time in a CPU profile, as "name file:line:column ms". */
export function topFunctions(profile: CpuProfile, count = 15): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  profile.samples?.forEach((id, i) => {
    const frame = byNode.get(id);
    if (!frame) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}:${frame.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `${key} ${round(ms)}`);
}

/** Starts the page's CPU profiler; the returned function stops it and names the hottest functions. */
export async function startProfile(cdp: CDPSession): Promise<() => Promise<string[]>> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  return async () => topFunctions((await cdp.send('Profiler.stop')).profile);
}

/**
 * Starts the CPU profiler in every dedicated worker of the page `cdp` belongs to (MapLibre's, the
 * users' tiles, the hub): attached through the target domain (attachWorkers), or with `fromStart`
 * in each worker the page starts from now on, before its first line (onWorkerStart: call before
 * the navigation). The returned function stops them and names each worker's hottest functions and
 * its busy ms.
 */
export async function startWorkerProfiles(
  cdp: CDPSession,
  fromStart = false,
): Promise<() => Promise<Record<string, string[]>>> {
  const sessions: { sessionId: string; url: string }[] = [];
  let send: WorkerSend;
  if (fromStart) {
    await onWorkerStart(cdp, async (worker, sender) => {
      send = sender;
      await sender(worker.sessionId, 'Profiler.enable');
      await sender(worker.sessionId, 'Profiler.start');
      sessions.push(worker);
    });
  } else {
    const attached = await attachWorkers(cdp);
    send = attached.send;
    for (const worker of attached.sessions) {
      await send(worker.sessionId, 'Profiler.enable');
      await send(worker.sessionId, 'Profiler.start');
      sessions.push(worker);
    }
  }
  return async () => {
    const found: Record<string, string[]> = {};
    for (const [index, { sessionId, url }] of sessions.entries()) {
      const { profile } = (await send(sessionId, 'Profiler.stop')) as { profile: CpuProfile };
      const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
      const busyMs = (profile.timeDeltas ?? []).reduce(
        (sum, delta, i) => (idle.has(profile.samples?.[i] ?? -1) ? sum : sum + delta / 1000),
        0,
      );
      found[`${index} ${url.slice(0, 40)} busy ${Math.round(busyMs)} ms`] = topFunctions(profile, 12);
    }
    return found;
  };
}
