import { JsonHubProtocol, NullLogger, type InvocationMessage } from '@microsoft/signalr';
import { describe, expect, test } from 'vitest';
import { parsePushInSlices, type SlicedPush } from './parsePushInSlices';
import { SlicedJsonHubProtocol } from './SlicedJsonHubProtocol';

const RS = '\u001e';

/** GpsRecords as the server writes them (U_ID first); some names hold what looks like a separator. */
function records(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    U_ID: i + 1,
    E_ID: 1,
    Phone: `136${String(i).padStart(8, '0')}`,
    UserName: i % 7 === 0 ? `tricky },{"U_ID":${i} \\ "quoted"` : `User ${i}`,
    lat: 22.5 + i / 1e5,
    lon: 114,
    time: 1_790_000_000_000 + i,
    speed: null,
    course: 0,
    battery: 80,
    signal: 60,
    online: true,
    talking: false,
    gpsOnline: true,
    interval: 60,
  }));
}

const pushRecord = (type: string, data: unknown) =>
  `{"type":1,"target":"pushMsg","arguments":[${JSON.stringify({ type, data })}]}`;

describe('parsePushInSlices', () => {
  test('parses a snapshot slice by slice into exactly the records JSON.parse gives, yielding between slices', async () => {
    const data = records(2000);
    let yields = 0;
    const sliced = parsePushInSlices(
      pushRecord('GPSArray', data),
      () => {
        yields++;
        return Promise.resolve();
      },
      { sliceChars: 4096, budgetMs: -1 },
    );
    expect(sliced?.type).toBe('GPSArray');
    expect(await sliced?.data).toEqual(data);
    expect(yields).toBeGreaterThan(50);
  });

  test('the online users of pushNotify keep their count and delta', async () => {
    const users = records(600).map(({ U_ID, E_ID, Phone, UserName, online }) => ({
      U_ID,
      E_ID,
      Phone,
      UserName,
      online,
      time: 1,
    }));
    const record = `{"type":1,"target":"pushNotify","arguments":[${JSON.stringify({ type: 'OnlineChange', data: { count: 600, delta: -2, users } })}]}`;
    const sliced = parsePushInSlices(record, () => Promise.resolve(), { sliceChars: 2048 });
    expect(sliced).toMatchObject({ target: 'pushNotify', type: 'OnlineChange' });
    expect(await sliced?.data).toEqual({ count: 600, delta: -2, users });
  });

  test('an empty delta, and records that are not positions, are left to the usual parse', async () => {
    expect(await parsePushInSlices(pushRecord('GPS', []), () => Promise.resolve())?.data).toEqual([]);
    expect(parsePushInSlices(pushRecord('Notifys', []), () => Promise.resolve())).toBeUndefined();
    expect(parsePushInSlices('{"type":6}', () => Promise.resolve())).toBeUndefined();
  });

  test('a broken record rejects instead of giving part of the users', async () => {
    const broken = pushRecord('GPS', records(300)).replace('"lat":22.5', '"lat":22.5.1');
    await expect(parsePushInSlices(broken, () => Promise.resolve(), { sliceChars: 1024 })?.data).rejects.toThrow();
  });
});

describe('SlicedJsonHubProtocol', () => {
  const logger = NullLogger.instance;

  test('short input is parsed as the JSON hub protocol does', () => {
    const input = `${pushRecord('GPS', records(3))}${RS}{"type":6}${RS}`;
    expect(new SlicedJsonHubProtocol().parseMessages(input, logger)).toEqual(
      new JsonHubProtocol().parseMessages(input, logger),
    );
  });

  test('a long positions record becomes a sliced argument, in its place among the others', async () => {
    const data = records(500);
    const input = `{"type":6}${RS}${pushRecord('GPSArray', data)}${RS}${pushRecord('NumOnlineUser', 500)}${RS}`;
    const messages = new SlicedJsonHubProtocol(() => Promise.resolve(), 1000).parseMessages(input, logger);
    expect(messages.map((m) => m.type)).toEqual([6, 1, 1]);
    const sliced = (messages[1] as InvocationMessage).arguments[0] as SlicedPush;
    expect(sliced.type).toBe('GPSArray');
    expect(await sliced.data).toEqual(data);
    expect((messages[2] as InvocationMessage).arguments[0]).toEqual({ type: 'NumOnlineUser', data: 500 });
  });
});
