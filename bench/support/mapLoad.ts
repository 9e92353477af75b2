// The load of bench/map.ts: terminal users moving once a second, on the Redis event bus or over /terminal.
import type { ChildProcess } from 'node:child_process';
import { helper } from './helperProcess.js';
import type { RunningServer } from './startServer.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls the enterprise statistics until 97 % of the terminals are online, or the count has not
 * grown for a minute (a loaded machine cannot log them all in); returns the count.
 */
export async function waitOnline(url: string, token: string, users: number): Promise<number> {
  let online = 0;
  let grewAt = Date.now();
  for (const deadline = Date.now() + Math.max(120_000, users * 10); Date.now() < deadline; await sleep(2000)) {
    const response = await fetch(`${url}/api/Enterprise/Statistics`, { headers: { Authorization: `Bearer ${token}` } });
    const answer = (await response.json()) as { BaseData?: { Online: number }; BaseResult?: unknown };
    if (!answer.BaseData) throw new Error(`statistics answered ${JSON.stringify(answer)}`);
    if (answer.BaseData.Online > online) grewAt = Date.now();
    online = answer.BaseData.Online;
    if (online >= users * 0.97 || Date.now() - grewAt > 60_000) return online;
  }
  return online;
}

/** How the load reaches the server, and where it counts the moves a second it published (bus). */
export interface MapLoadFeed {
  feed: 'bus' | 'terminal';
  redisUrl: string;
  /** Moves a second the bus load published, one entry a second. */
  busRate: number[];
}

/** Starts the load of `users` moves a second; resolves once they all move (bus) or once logins began (terminal). */
export async function startLoad(
  server: RunningServer,
  users: number,
  prefix: string,
  { feed, redisUrl, busRate }: MapLoadFeed,
): Promise<ChildProcess> {
  if (feed === 'terminal') {
    // The paced load prints nothing until it ends: waitOnline watches the server's count instead.
    return helper(
      'terminalLoad.ts',
      [JSON.stringify({ url: server.url, first: 0, count: users, window: 1, rate: users, seconds: 3600 })],
      () => undefined,
    );
  }
  let ready: () => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const moving = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const child = helper(
    'busLoad.ts',
    [JSON.stringify({ redisUrl, channel: `${prefix}:realtime`, dataDir: server.dataDir, count: users })],
    (line) => {
      if (line.ready) ready();
      busRate.push(Number(line.perSecond));
    },
  );
  child.once('exit', (code) => failed(new Error(`the bus load exited with ${code}`)));
  await moving;
  return child;
}
