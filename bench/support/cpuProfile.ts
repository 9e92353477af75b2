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

/**
 * Starts the CPU profiler in every dedicated worker of the page `cdp` belongs to (MapLibre's
 * workers): attached through the target domain, as Playwright gives no session for a worker. The
 * returned function stops them and names each worker's hottest functions and its busy ms.
 */
export async function startWorkerProfiles(cdp: CDPSession): Promise<() => Promise<Record<string, string[]>>> {
  let nextId = 1;
  const answers = new Map<number, (result: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget', ({ message }: { message: string }) => {
    const reply = JSON.parse(message) as { id?: number; result?: unknown };
    if (reply.id !== undefined) answers.get(reply.id)?.(reply.result);
  });
  const send = (sessionId: string, method: string, params = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      answers.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
  const { targetInfos } = await cdp.send('Target.getTargets');
  const sessions: { sessionId: string; url: string }[] = [];
  for (const target of targetInfos.filter((info) => info.type === 'worker')) {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
    await send(sessionId, 'Profiler.enable');
    await send(sessionId, 'Profiler.start');
    sessions.push({ sessionId, url: target.url });
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
