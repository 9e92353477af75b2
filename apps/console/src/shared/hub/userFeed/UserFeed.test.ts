import { wgs84ToGcj02 } from '@intercom/contract';
import { describe, expect, test } from 'vitest';
import { gpsRecordFixture as gps } from '../gpsRecordFixture';
import { LiveStore } from '../LiveStore';
import type { HubMessage } from '../liveSnapshot';
import { sosAlarmFixture } from '../sosAlarmFixture';
import type { Bounds } from '../hubWorkerMessages';
import { UserFeed } from './UserFeed';
import { batchNames, stateCode, type UserBatch } from './userBatch';

const sos = sosAlarmFixture(2);

/** A feed whose batches are drawn at once and sent without waiting, over a store flushed by the test. */
function setup(gcj02: boolean, ...first: HubMessage[]) {
  const store = new LiveStore(() => () => undefined);
  const burst = (...messages: HubMessage[]) => {
    for (const message of messages) store.receive(message);
    store.flush();
  };
  burst(...first);
  const batches: UserBatch[] = [];
  const bounds: (Bounds | undefined)[] = [];
  const feed = new UserFeed(
    store,
    gcj02,
    (users, sent) => {
      batches.push(users);
      bounds.push(sent);
      return Promise.resolve();
    },
    { minIntervalMs: 0 },
  );
  return { burst, batches, bounds, feed };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('UserFeed', () => {
  test('shifts every point to GCJ-02 for AMap tiles, and names go once', async () => {
    const { burst, batches } = setup(
      true,
      { type: 'GPSArray', data: [gps(1, { lon: 116.397, lat: 39.908 })] },
      { type: 'NumOnlineUser', data: 1 },
    );
    const [lon, lat] = wgs84ToGcj02(116.397, 39.908);
    expect(batches[0]?.replace).toBe(true);
    expect([...batchNames(batches[0]!)]).toEqual([[1, 'Patrol 1']]);
    expect([batches[0]!.lon[0], batches[0]!.lat[0]]).toEqual([lon, lat]);
    expect(lon).not.toBe(116.397);
    await settle();
    burst({ type: 'GPS', data: [gps(1, { lon: 116.4, lat: 39.91 })] });
    await settle();
    expect(batches[1]?.replace).toBe(false);
    expect(batchNames(batches[1]!).size).toBe(0);
  });

  test('an SOS re-sends the user red without a move, and a stopped feed sends nothing', async () => {
    const { burst, batches, feed } = setup(
      false,
      { type: 'GPSArray', data: [gps(1), gps(2)] },
      { type: 'NumOnlineUser', data: 2 },
    );
    await settle();
    burst({ type: 'Notify', data: [sos] });
    await settle();
    expect([...batches[1]!.ids]).toEqual([2]);
    expect(batches[1]!.states[0]).toBe(stateCode('sos'));
    feed.stop();
    burst({ type: 'GPS', data: [gps(1, { lat: 1 })] });
    await settle();
    expect(batches).toHaveLength(2);
  });

  test('the bounds come with the snapshot, or with the first users to arrive after an empty one', async () => {
    const full = setup(
      false,
      { type: 'GPSArray', data: [gps(1, { lon: 114, lat: 22 }), gps(2, { lon: 115, lat: 23 })] },
      { type: 'NumOnlineUser', data: 2 },
    );
    await settle();
    full.burst({ type: 'GPS', data: [gps(1, { lon: 114.5, lat: 22.5 })] });
    await settle();
    expect(full.bounds).toEqual([
      [
        [114, 22],
        [115, 23],
      ],
      undefined,
    ]);

    // A map opened before any terminal reported is framed by the first to report.
    const empty = setup(false, { type: 'GPSArray', data: [] }, { type: 'NumOnlineUser', data: 0 });
    await settle();
    empty.burst({ type: 'GPS', data: [gps(3, { lon: 113, lat: 21 })] });
    await settle();
    empty.burst({ type: 'GPS', data: [gps(4, { lon: 116, lat: 24 })] });
    await settle();
    expect(empty.bounds).toEqual([
      undefined,
      [
        [113, 21],
        [113, 21],
      ],
      undefined,
    ]);
  });
});
