import {
  GPS_BLOCK_TYPE,
  ONLINE_BLOCK_TYPE,
  encodePositionBlock,
  packGpsBlock,
  packOnlineUsers,
  userColumnsOf,
  type GpsRecord,
  type OnlineUser,
} from '@intercom/contract';
import { describe, expect, test } from 'vitest';
import { FakeHubConnection } from './FakeHubConnection';
import { HubController } from './HubController';
import { gpsRecordFixture } from './gpsRecordFixture';
import type { HubProtocolName } from './hubProtocolChoice';
import { LiveStore } from './LiveStore';

function setup(startErrors: Error[] = []) {
  const made: { protocol: HubProtocolName; connection: FakeHubConnection }[] = [];
  const store = new LiveStore((flush) => {
    flush();
    return () => undefined;
  });
  const controller = new HubController({
    protocol: 'messagepack',
    createConnection: (protocol) => {
      const connection = new FakeHubConnection();
      const error = startErrors.shift();
      if (error) connection.startResult = Promise.reject(error);
      made.push({ protocol, connection });
      return connection;
    },
    checkSession: () => Promise.resolve('ended'),
    onResync: () => undefined,
    sleep: () => Promise.resolve(),
    random: () => 1,
    store,
  });
  return { controller, made, store, last: () => made.at(-1)!.connection };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A `GPSBlock` push of `records`, their slow fields for `withUsers` (all of them when full). */
function block(records: GpsRecord[], full: boolean, withUsers = records) {
  return {
    type: GPS_BLOCK_TYPE,
    data: { full, block: encodePositionBlock(records), users: userColumnsOf(full ? records : withUsers) },
  };
}

describe('HubController on MessagePack', () => {
  test('asks for MessagePack and takes GPS blocks as the GPSArray and GPS messages of JSON', async () => {
    const { controller, made, store, last } = setup();
    controller.start();
    await settle();
    expect(made.map((m) => m.protocol)).toEqual(['messagepack']);

    const one = gpsRecordFixture(1, { speed: 12.5, course: 90 });
    const two = gpsRecordFixture(2, { online: false, gpsOnline: false });
    last().push('pushMsg', block([one, two], true));
    expect([...store.getSnapshot().positions.values()]).toEqual([one, two]);

    // A move: no slow fields travel, the store keeps the ones it had.
    const moved = { ...one, lat: 23.25, lon: 114.5, time: one.time + 1000 };
    last().push('pushMsg', block([moved], false, []));
    expect(store.getSnapshot().positions.get(1)).toEqual(moved);
    expect(store.getSnapshot().positions.size).toBe(2);

    // A battery change comes with the user's fields.
    const charged = { ...moved, battery: 99 };
    last().push('pushMsg', block([charged], false));
    expect(store.getSnapshot().positions.get(1)).toEqual(charged);
  });

  test('asks for packed snapshots on MessagePack only, and takes them', async () => {
    const { controller, made, store } = setup([
      new Error("Server returned handshake error: The protocol 'messagepack' is not supported."),
    ]);
    controller.start();
    await settle();
    expect(made[1]?.connection.invocations).toEqual([['FuncGPS'], ['FuncNotify']]);

    const packed = setup();
    packed.controller.start();
    await settle();
    expect(packed.last().invocations).toEqual([
      ['FuncGPS', { packed: true }],
      ['FuncNotify', { packed: true }],
    ]);
    const records = [gpsRecordFixture(1), gpsRecordFixture(2, { talking: true })];
    packed.last().push('pushMsg', { type: GPS_BLOCK_TYPE, data: packGpsBlock(block(records, true).data) });
    expect([...packed.store.getSnapshot().positions.values()]).toEqual(records);
    expect(store.getSnapshot().status).toBe('connected');
  });

  test('takes packed online users as the OnlineUser and Online messages of JSON', async () => {
    const { controller, store, last } = setup();
    controller.start();
    await settle();
    const users: OnlineUser[] = [1, 2, 3].map((U_ID) => ({
      U_ID,
      E_ID: 1,
      Phone: `1390000000${U_ID}`,
      UserName: `巡逻 ${U_ID}`,
      online: true,
      time: 1_767_225_600_000,
    }));
    last().push('pushNotify', { type: ONLINE_BLOCK_TYPE, data: packOnlineUsers(users, 3) });
    expect(store.getSnapshot().onlineCount).toBe(3);
    expect([...store.getSnapshot().onlineUsers.values()]).toEqual(users);
    // The GPS snapshot empties the online users; its OnlineBlock brings them back.
    last().push('pushMsg', block([gpsRecordFixture(1)], true));
    store.flush();
    expect(store.getSnapshot().onlineUsers.size).toBe(0);
    last().push('pushMsg', { type: ONLINE_BLOCK_TYPE, data: packOnlineUsers(users.slice(0, 2), 2) });
    store.flush();
    expect([...store.getSnapshot().onlineUsers.keys()]).toEqual([1, 2]);
  });

  test.each([
    ['pushMsg', 'FuncGPS'],
    ['pushNotify', 'FuncNotify'],
  ] as const)('falls back to JSON for good when packed online users on %s do not unpack', async (target, feed) => {
    const { controller, made, store, last } = setup();
    controller.start();
    await settle();
    last().push(target, { type: ONLINE_BLOCK_TYPE, data: { count: 1, packed: new Uint8Array([0xff, 0xff]) } });
    await settle();
    expect(made.map((m) => m.protocol)).toEqual(['messagepack', 'json']);
    expect(last().invocations).toContainEqual([feed]);
    expect(store.getSnapshot().status).toBe('connected');
  });

  test('falls back to JSON for good when a packed snapshot does not unpack', async () => {
    const { controller, made, store, last } = setup();
    controller.start();
    await settle();
    last().push('pushMsg', { type: GPS_BLOCK_TYPE, data: { full: true, packed: new Uint8Array([0xff, 0xff, 0xff]) } });
    await settle();
    expect(made.map((m) => m.protocol)).toEqual(['messagepack', 'json']);
    expect(last().invocations[0]).toEqual(['FuncGPS']);
    expect(store.getSnapshot().status).toBe('connected');
  });

  test('falls back to JSON for good when a block has a version it does not know', async () => {
    const { controller, made, store, last } = setup();
    controller.start();
    await settle();
    const unknown = block([gpsRecordFixture(1)], true);
    unknown.data.block[0] = 9;
    last().push('pushMsg', unknown);
    await settle();
    expect(made.map((m) => m.protocol)).toEqual(['messagepack', 'json']);
    expect(made[0]?.connection.stopped).toBe(true);
    expect(store.getSnapshot().positions.size).toBe(0);
    expect(store.getSnapshot().status).toBe('connected');
  });

  test('falls back to JSON at once when the server refuses MessagePack', async () => {
    const refusal = new Error("Server returned handshake error: The protocol 'messagepack' is not supported.");
    const { controller, made, store } = setup([refusal]);
    controller.start();
    await settle();
    expect(made.map((m) => m.protocol)).toEqual(['messagepack', 'json']);
    expect(store.getSnapshot().status).toBe('connected');
  });

  test('keeps MessagePack when the server is only out of reach', async () => {
    const { controller, made } = setup([new Error('Failed to fetch')]);
    controller.start();
    await settle();
    expect(made.map((m) => m.protocol)).toEqual(['messagepack', 'messagepack']);
  });

  test('drops a malformed block, as any message that does not match the contract', async () => {
    const { controller, store, last } = setup();
    controller.start();
    await settle();
    last().push('pushMsg', { type: GPS_BLOCK_TYPE, data: { full: true, block: 'not binary', users: {} } });
    last().push('pushMsg', {
      type: GPS_BLOCK_TYPE,
      data: { ...block([gpsRecordFixture(1)], true).data, block: new Uint8Array(3) },
    });
    expect(store.getSnapshot().positions.size).toBe(0);
    expect(store.getSnapshot().status).toBe('connected');
  });
});
