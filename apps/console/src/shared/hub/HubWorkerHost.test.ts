import { HubTargets } from '@intercom/contract';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { FakeHubConnection } from './FakeHubConnection';
import { gpsRecordFixture as gps } from './gpsRecordFixture';
import type { SessionCheck } from './HubController';
import { HubWorkerClient, type WorkerLike } from './HubWorkerClient';
import { HubWorkerHost } from './HubWorkerHost';
import type { FeedBatch } from './hubWorkerMessages';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

/**
 * The page's client and the worker's host over a real MessageChannel (what a Worker's messages
 * are), with a fake hub connection in the host.
 */
function setup({
  token = 'token-1',
  session = 'ended',
  startError,
}: { token?: string; session?: SessionCheck; startError?: Error } = {}) {
  const channel = new MessageChannel();
  channels.push(channel);
  const connections: FakeHubConnection[] = [];
  new HubWorkerHost(channel.port2, (getToken) => {
    const connection = new FakeHubConnection(getToken);
    if (startError) {
      // Rejected only after the token came back from the page: handled by then, not unhandled now.
      connection.startResult = Promise.reject(startError);
      connection.startResult.catch(() => undefined);
    }
    connections.push(connection);
    return connection;
  });
  const checkSession = vi.fn(() => Promise.resolve(session));
  const onResync = vi.fn();
  const client = new HubWorkerClient({
    createWorker: () => channel.port1,
    token: () => token,
    checkSession,
    onResync,
  });
  const connected = async () => {
    await vi.waitFor(() => expect(client.view.getSnapshot().status).toBe('connected'));
    return connections.at(-1)!;
  };
  return { client, channel, connections, checkSession, onResync, connected };
}

const snapshot = (connection: FakeHubConnection, ...records: ReturnType<typeof gps>[]) => {
  connection.push(HubTargets.pushMsg, { type: 'GPSArray', data: records });
  connection.push(HubTargets.pushMsg, { type: 'NumOnlineUser', data: records.length });
};

describe('the hub worker and the page', () => {
  test('connects with the page token and brings the page counts, states and a watched user', async () => {
    const { client, channel, connected } = setup();
    client.start();
    const connection = await connected();
    expect(connection.tokens).toEqual(['token-1']);
    expect(connection.invoked).toEqual(['FuncGPS', 'FuncNotify']);
    snapshot(connection, gps(1), gps(2, { gpsOnline: false }));
    await vi.waitFor(() => expect(client.view.getSnapshot().onlineCount).toBe(2));
    expect(client.view.getSnapshot().gpsOnlineCount).toBe(1);
    expect([...client.view.getSnapshot().states]).toEqual([
      [1, 'online'],
      [2, 'stale'],
    ]);

    const unwatch = client.watch(2);
    await vi.waitFor(() => expect(client.view.getSnapshot().watched.get(2)?.record?.U_ID).toBe(2));
    connection.push(HubTargets.pushMsg, { type: 'GPS', data: [gps(2, { lat: 10 })] });
    await vi.waitFor(() => expect(client.view.getSnapshot().watched.get(2)?.record?.lat).toBe(10));
    unwatch();
    expect(client.view.getSnapshot().watched.has(2)).toBe(false);
    // A view the worker sent before it heard of the unwatch does not bring the user back.
    const stale = { record: gps(2, { lat: 11 }), heartRate: null };
    channel.port2.postMessage({ type: 'view', changes: { onlineDelta: 0, alarmPushed: false, watched: [[2, stale]] } });
    channel.port2.postMessage({ type: 'view', changes: { onlineDelta: 0, alarmPushed: false, gpsOnlineCount: 7 } });
    await vi.waitFor(() => expect(client.view.getSnapshot().gpsOnlineCount).toBe(7));
    expect(client.view.getSnapshot().watched.has(2)).toBe(false);

    client.stop();
    await vi.waitFor(() => expect(client.view.getSnapshot().status).toBe('idle'));
    expect(client.view.getSnapshot().states.size).toBe(0);
    expect(connection.stopped).toBe(true);
  });

  test('searches the users with a position; a bad search or watch changes nothing', async () => {
    const { client, connected } = setup();
    client.start();
    const connection = await connected();
    snapshot(connection, gps(1, { UserName: 'Alpha' }), gps(2, { UserName: 'Bravo' }));
    await vi.waitFor(() => expect(client.view.getSnapshot().onlineCount).toBe(2));
    expect(await client.search('alp', 20)).toEqual([{ U_ID: 1, UserName: 'Alpha', Phone: gps(1).Phone }]);
    expect(await client.search('zzz', 20)).toEqual([]);
    expect(await client.search('a', -5)).toEqual([]);
    expect(await client.search('a', Number.NaN)).toEqual([]);
    expect(await client.search('a', 1.5)).toEqual([]);
    // A watch of ids that are not users is dropped by the worker; the view stays as it was.
    const before = client.view.getSnapshot();
    const worker = (client as unknown as { worker: WorkerLike }).worker;
    worker.postMessage({ type: 'watch', ids: [Number.NaN, 1.5] });
    worker.postMessage({ type: 'nonsense' } as never);
    worker.postMessage({ type: 'watch', ids: 'all' } as never);
    expect(await client.search('bravo', 20)).toHaveLength(1);
    expect(client.view.getSnapshot().watched).toBe(before.watched);
  });

  test('a map feed posts every user with their bounds first, then only who moved, each after the last was drawn', async () => {
    const { client, connected } = setup();
    client.start();
    const connection = await connected();
    snapshot(connection, gps(1, { lon: 114, lat: 22 }), gps(2, { lon: 116, lat: 40 }));
    await vi.waitFor(() => expect(client.view.getSnapshot().onlineCount).toBe(2));
    // The port's other end stands for the map's tile worker, where the batches go.
    const tileWorker = new MessageChannel();
    channels.push(tileWorker);
    const batches: FeedBatch[] = [];
    tileWorker.port2.onmessage = (event: MessageEvent<FeedBatch>) => batches.push(event.data);
    const before = Date.now();
    const feed = client.openFeed(false, tileWorker.port1);
    await vi.waitFor(() => expect(batches).toHaveLength(1));
    expect(batches[0]!.users.replace).toBe(true);
    expect([...batches[0]!.users.ids]).toEqual([1, 2]);
    expect(batches[0]!.bounds).toEqual([
      [114, 22],
      [116, 40],
    ]);
    expect(batches[0]!.sentAt).toBeGreaterThanOrEqual(before);
    connection.push(HubTargets.pushMsg, { type: 'GPS', data: [gps(2, { lon: 117, lat: 41 })] });
    // Not before the first batch was drawn, nor for another batch said drawn.
    feed.drawn(batches[0]!.batch + 100);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(batches).toHaveLength(1);
    feed.drawn(batches[0]!.batch);
    await vi.waitFor(() => expect(batches).toHaveLength(2));
    expect(batches[1]!.users.replace).toBe(false);
    expect([...batches[1]!.users.ids]).toEqual([2]);
    expect([...batches[1]!.users.lon]).toEqual([117]);
    expect(batches[1]!.bounds).toBeUndefined();
    // A closed feed sends nothing more, whatever moves.
    feed.drawn(batches[1]!.batch);
    feed.close();
    connection.push(HubTargets.pushMsg, { type: 'GPS', data: [gps(1, { lon: 118, lat: 42 })] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(batches).toHaveLength(2);
  });

  test('a feed opened without a port is ignored, and the worker goes on answering', async () => {
    const { client, connected } = setup();
    client.start();
    const connection = await connected();
    snapshot(connection, gps(1, { UserName: 'Alpha' }));
    await vi.waitFor(() => expect(client.view.getSnapshot().onlineCount).toBe(1));
    const worker = (client as unknown as { worker: WorkerLike }).worker;
    worker.postMessage({ type: 'feedOpen', feed: 999, gcj02: false } as never);
    worker.postMessage({ type: 'feedOpen', feed: 998, gcj02: false, port: 'nowhere' } as never);
    worker.postMessage({ type: 'feedDrawn', feed: 999, batch: 1 });
    worker.postMessage({ type: 'feedClose', feed: 999 });
    expect(await client.search('alpha', 20)).toEqual([{ U_ID: 1, UserName: 'Alpha', Phone: gps(1).Phone }]);
  });

  test('a 401 asks the page to check the session; an ended session stays ended', async () => {
    const { client, checkSession } = setup({ startError: new Error("Status code '401'") });
    client.start();
    await vi.waitFor(() => expect(checkSession).toHaveBeenCalledTimes(1));
    expect(client.view.getSnapshot().status).toBe('ended');
  });

  test('a worker that cannot run shows the hub disconnected and ends the searches waiting for it', async () => {
    const worker: WorkerLike = { postMessage: () => undefined, onmessage: null, onerror: null };
    const client = new HubWorkerClient({
      createWorker: () => worker,
      token: () => '',
      checkSession: () => Promise.resolve('ended'),
      onResync: () => undefined,
    });
    client.start();
    const searching = client.search('alpha', 20);
    worker.onerror?.({ message: 'blocked' } as ErrorEvent);
    expect(await searching).toEqual([]);
    expect(client.view.getSnapshot().status).toBe('disconnected');
  });
});
