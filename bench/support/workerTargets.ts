import type { CDPSession } from 'playwright-core';

/** A command to one attached worker; resolves with its result. */
export type WorkerSend = (sessionId: string, method: string, params?: object) => Promise<unknown>;

/** Sends commands to workers attached through `cdp`'s target domain (not flattened) and reads their answers. */
function workerSender(cdp: CDPSession): WorkerSend {
  let nextId = 1;
  const answers = new Map<number, (result: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget', ({ message }: { message: string }) => {
    const reply = JSON.parse(message) as { id?: number; result?: unknown };
    if (reply.id !== undefined) answers.get(reply.id)?.(reply.result);
  });
  return (sessionId, method, params = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      answers.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
}

/**
 * Attaches to every dedicated worker of the page `cdp` belongs to, through the target domain
 * (Playwright gives no CDP session for a worker), and returns them with a way to send commands.
 */
export async function attachWorkers(
  cdp: CDPSession,
): Promise<{ sessions: { sessionId: string; url: string }[]; send: WorkerSend }> {
  const send = workerSender(cdp);
  const { targetInfos } = await cdp.send('Target.getTargets');
  const sessions: { sessionId: string; url: string }[] = [];
  for (const target of targetInfos.filter((info) => info.type === 'worker')) {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
    sessions.push({ sessionId, url: target.url });
  }
  return { sessions, send };
}

/** The used JavaScript heap of each worker whose URL holds `part`, after a collection, in bytes. */
export async function workerHeapBytes(cdp: CDPSession, part: string): Promise<number> {
  const { sessions, send } = await attachWorkers(cdp);
  let total = 0;
  for (const { sessionId, url } of sessions) {
    if (!url.includes(part)) continue;
    await send(sessionId, 'HeapProfiler.collectGarbage');
    total += ((await send(sessionId, 'Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
  }
  for (const { sessionId } of sessions) await cdp.send('Target.detachFromTarget', { sessionId });
  return total;
}

/**
 * Calls `started` with each dedicated worker the page `cdp` belongs to starts from now on, paused
 * before its first line until `started` resolves (so a profiler started there sees all its work).
 */
export async function onWorkerStart(
  cdp: CDPSession,
  started: (worker: { sessionId: string; url: string }, send: WorkerSend) => Promise<void>,
): Promise<void> {
  const send = workerSender(cdp);
  cdp.on(
    'Target.attachedToTarget',
    ({ sessionId, targetInfo }: { sessionId: string; targetInfo: { type: string; url: string } }) => {
      if (targetInfo.type !== 'worker') return;
      void started({ sessionId, url: targetInfo.url }, send).then(() =>
        send(sessionId, 'Runtime.runIfWaitingForDebugger'),
      );
    },
  );
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
}
