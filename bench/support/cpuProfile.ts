import type { CDPSession } from 'playwright-core';

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
