// A running Node process's inspector: SIGUSR1 opens it on 127.0.0.1:9229. A CPU profile over one
// stretch of time (bench/fleet.ts's measuring window), or any other command (bench/terminalHeap.ts
// collects garbage and reads the heap).
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import type { CpuProfile } from './cpuProfile.js';
import { wsText } from './wsText.js';

/** A DevTools protocol session with process `pid`'s inspector (opened by SIGUSR1 on 127.0.0.1:9229). */
export async function inspectProcess(pid: number): Promise<{
  send: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
  close: () => void;
}> {
  process.kill(pid, 'SIGUSR1');
  let target: string | undefined;
  for (let tries = 0; !target && tries < 50; tries++) {
    await sleep(100);
    try {
      const list = (await (await fetch('http://127.0.0.1:9229/json/list')).json()) as {
        webSocketDebuggerUrl: string;
      }[];
      target = list[0]?.webSocketDebuggerUrl;
    } catch {
      // not listening yet
    }
  }
  if (!target) throw new Error(`process ${pid} opened no inspector on 127.0.0.1:9229`);
  const socket = new WebSocket(target, { perMessageDeflate: false });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 1;
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  socket.on('message', (data) => {
    const reply = JSON.parse(wsText(data)) as { id?: number; result?: Record<string, unknown> };
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply.result ?? {});
  });
  return {
    send: (method, params = {}) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Starts profiling process `pid`; the returned function stops it and returns the profile. */
export async function startInspectorProfile(pid: number): Promise<() => Promise<CpuProfile>> {
  const { send, close } = await inspectProcess(pid);
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 1000 });
  await send('Profiler.start');
  return async () => {
    const { profile } = (await send('Profiler.stop')) as { profile: CpuProfile };
    close();
    return profile;
  };
}
