import { describe, expect, test, vi } from 'vitest';
import { FakeHubConnection as FakeConnection } from './FakeHubConnection';
import { HubController, type SessionCheck } from './HubController';
import { LiveStore } from './LiveStore';

function setup(options: { failStarts?: number; startError?: Error; session?: SessionCheck } = {}) {
  const connections: FakeConnection[] = [];
  let failures = options.failStarts ?? 0;
  const sleeps: number[] = [];
  const onResync = vi.fn();
  const checkSession = vi.fn(() => Promise.resolve(options.session ?? 'ended'));
  // Flushes at once, so the state can be read right after a push.
  const store = new LiveStore((flush) => {
    flush();
    return () => undefined;
  });
  const controller = new HubController({
    createConnection: () => {
      const connection = new FakeConnection();
      if (options.startError) connection.startResult = Promise.reject(options.startError);
      else if (failures > 0) {
        failures -= 1;
        connection.startResult = Promise.reject(new Error('Failed to fetch'));
      }
      connections.push(connection);
      return connection;
    },
    checkSession,
    onResync,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 1,
    store,
  });
  return { controller, connections, sleeps, onResync, checkSession, store };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('HubController', () => {
  test('connects once, subscribes to both feeds and takes their pushes', async () => {
    const { controller, connections, store } = setup();
    controller.start();
    controller.start();
    await settle();
    expect(connections).toHaveLength(1);
    expect(connections[0]?.invoked).toEqual(['FuncGPS', 'FuncNotify']);
    expect(store.getSnapshot().status).toBe('connected');

    connections[0]?.push('pushNotify', { type: 'Online', data: { count: 2, users: [] } });
    expect(store.getSnapshot().onlineCount).toBe(2);
    // What does not match the contract is dropped, not stored.
    connections[0]?.push('pushNotify', { type: 'Online', data: { count: -1, users: [] } });
    expect(store.getSnapshot().onlineCount).toBe(2);
  });

  test('after an automatic reconnect it subscribes again and refetches', async () => {
    const { controller, connections, onResync, store } = setup();
    controller.start();
    await settle();
    connections[0]?.loseAndRecover();
    await settle();
    expect(connections[0]?.invoked).toEqual(['FuncGPS', 'FuncNotify', 'FuncGPS', 'FuncNotify']);
    expect(onResync).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().status).toBe('connected');
  });

  test('keeps trying with back-off while the server cannot be reached, then resyncs', async () => {
    const { controller, connections, sleeps, onResync, store } = setup({ failStarts: 3 });
    const statuses: string[] = [];
    store.subscribe(() => statuses.push(store.getSnapshot().status));
    controller.start();
    await settle();
    expect(connections).toHaveLength(4);
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(statuses).toContain('disconnected');
    expect(store.getSnapshot().status).toBe('connected');
    expect(onResync).toHaveBeenCalledTimes(1);
  });

  test('starts over when the automatic reconnect gave up', async () => {
    const { controller, connections, onResync } = setup();
    controller.start();
    await settle();
    connections[0]?.close(new Error('WebSocket closed with status code: 1006'));
    await settle();
    expect(connections).toHaveLength(2);
    expect(connections[1]?.invoked).toEqual(['FuncGPS', 'FuncNotify']);
    expect(onResync).toHaveBeenCalledTimes(1);
  });

  test('a 401 goes to the session check instead of a reconnect loop', async () => {
    const error = new Error("Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'");
    const { controller, connections, checkSession, store } = setup({ startError: error });
    controller.start();
    await settle();
    expect(connections).toHaveLength(1);
    expect(checkSession).toHaveBeenCalledWith(error);
    expect(store.getSnapshot().status).toBe('ended');
  });

  test('a Close naming an ended session does not reconnect', async () => {
    const { controller, connections, checkSession } = setup();
    controller.start();
    await settle();
    connections[0]?.close(new Error('Server returned an error on close: Logged in elsewhere (50012)'));
    await settle();
    expect(checkSession).toHaveBeenCalledTimes(1);
    expect(connections).toHaveLength(1);
  });

  test('restart replaces the connection; the old one can no longer change the state', async () => {
    const { controller, connections, store } = setup();
    controller.start();
    await settle();
    connections[0]?.push('pushMsg', { type: 'NumOnlineUser', data: 3 });
    controller.restart();
    expect(connections[0]?.stopped).toBe(true);
    expect(store.getSnapshot().onlineCount).toBeUndefined();
    await settle();
    expect(connections).toHaveLength(2);
    connections[0]?.push('pushMsg', { type: 'NumOnlineUser', data: 9 });
    connections[0]?.close();
    await settle();
    expect(store.getSnapshot().onlineCount).toBeUndefined();
    expect(connections).toHaveLength(2);
    expect(store.getSnapshot().status).toBe('connected');
  });

  test('takes GPS records that hold to the contract and drops a burst with a bad one', async () => {
    const { controller, connections, store } = setup();
    controller.start();
    await settle();
    const record = {
      U_ID: 7,
      E_ID: 1,
      Phone: '13600000007',
      UserName: 'Seven',
      lat: 22.5,
      lon: 114,
      time: 1,
      speed: null,
      course: null,
      battery: 50,
      signal: null,
      online: true,
      talking: false,
      gpsOnline: true,
      interval: 30,
    };
    connections[0]?.push('pushMsg', { type: 'GPS', data: [record] });
    connections[0]?.push('pushMsg', {
      type: 'GPS',
      data: [
        { ...record, U_ID: 8 },
        { ...record, U_ID: 9, lat: 91 },
      ],
    });
    store.flush();
    expect([...store.getSnapshot().positions.keys()]).toEqual([7]);
  });

  test('takes online users that hold to the contract and drops a list with a bad one', async () => {
    const { controller, connections, store } = setup();
    controller.start();
    await settle();
    const user = { U_ID: 3, E_ID: 1, Phone: '3', UserName: 'Three', online: true, time: 5 };
    connections[0]?.push('pushNotify', { type: 'Online', data: { count: 1, users: [user] } });
    expect(store.getSnapshot().onlineUsers.get(3)?.UserName).toBe('Three');
    connections[0]?.push('pushMsg', {
      type: 'OnlineUser',
      data: [
        { ...user, U_ID: 4 },
        { ...user, U_ID: 'x' },
      ],
    });
    connections[0]?.push('pushNotify', { type: 'OnlineChange', data: { count: 2, delta: 1.5, users: [] } });
    store.flush();
    expect(store.getSnapshot().onlineUsers.has(4)).toBe(false);
    expect(store.getSnapshot().onlineCount).toBe(1);
  });

  test('stop ends the connection and the retries', async () => {
    const { controller, connections, store } = setup({ failStarts: 100 });
    controller.start();
    controller.stop();
    await settle();
    expect(connections.length).toBeLessThanOrEqual(1);
    expect(store.getSnapshot().status).toBe('idle');
  });
});
