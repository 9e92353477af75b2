import { unpackOnlineUsers, type OnlineBlockData } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../src/bus/eventBus.js';
import { FakeClock } from '../../src/core/clock.js';
import { ScopeFeed, emptyPending, mergePending, type Pending } from '../../src/hub/scopeFeed.js';
import type { ValueMessage } from '../../src/hub/valueMessage.js';
import type { LiveFix } from '../../src/live/liveRecords.js';
import { LiveState } from '../../src/live/liveState.js';

function pending(parts: Partial<Record<keyof Pending, [number | string, unknown][]>>): Pending {
  const result = emptyPending();
  for (const [key, entries] of Object.entries(parts) as [keyof Pending, [never, unknown][]][]) {
    for (const [id, value] of entries) (result[key] as Map<unknown, unknown>).set(id, value);
  }
  return result;
}

/** A fix of user U_ID at latitude `lat`. */
function fix(U_ID: number, lat: number): LiveFix {
  const position = { lat, lon: 114, time: 1, speed: null, course: null, interval: 10 };
  return {
    user: {
      E_ID: 1,
      U_ID,
      Phone: '',
      UserName: '',
      position,
      battery: null,
      signal: null,
      online: true,
      onlineAt: 0,
      talking: false,
    },
    gpsOnline: true,
  };
}

describe('mergePending (what a slow connection is held)', () => {
  it('keeps the later text of a user, phone or video source and adds the others', () => {
    const held = pending({
      fixes: [
        [1, fix(1, 1)],
        [2, fix(2, 1)],
      ],
      heartRates: [['139', 'h1']],
      videos: [[7, 'v1']],
    });
    const ok = mergePending(
      held,
      pending({
        fixes: [
          [2, fix(2, 2)],
          [3, fix(3, 1)],
        ],
        heartRates: [['139', 'h2']],
        videos: [[7, 'v2']],
      }),
    );
    expect(ok).toBe(true);
    expect([...held.fixes]).toEqual([
      [1, fix(1, 1)],
      [2, fix(2, 2)],
      [3, fix(3, 1)],
    ]);
    expect([...held.heartRates]).toEqual([['139', 'h2']]);
    expect([...held.videos]).toEqual([[7, 'v2']]);
  });

  it('moves an alarm that changed again to the end, so alarms stay in the order they last changed', () => {
    const held = pending({
      notifications: [
        [10, 'raised'],
        [11, 'raised'],
      ],
    });
    mergePending(held, pending({ notifications: [[10, 'handled']] }));
    expect([...held.notifications]).toEqual([
      [11, 'raised'],
      [10, 'handled'],
    ]);
  });

  it('says when more than 1,000 alarms are held (a snapshot is sent instead)', () => {
    const many = (from: number, count: number) =>
      pending({ notifications: Array.from({ length: count }, (_, i) => [from + i, 'n'] as [number, string]) });
    const held = many(0, 600);
    expect(mergePending(held, many(600, 400))).toBe(true);
    expect(mergePending(held, many(1000, 1))).toBe(false);
  });
});

describe("a scope's packed online users", () => {
  async function scopeWithTwoOnline() {
    const clock = new FakeClock(1_767_225_600_000);
    const live = new LiveState(
      new InProcessEventBus((error) => {
        throw error;
      }),
      { clock, staleSweepMs: 3_600_000 },
    );
    const scope = new ScopeFeed([3], live, 1000, clock);
    live.onChange((change) => scope.apply(change));
    for (const U_ID of [1, 2])
      live.setOnline({ E_ID: 3, U_ID, Phone: `13800000${U_ID}`, UserName: `User ${U_ID}` }, true);
    await Promise.resolve();
    return { live, scope, clock };
  }
  const namesIn = (block: ValueMessage<OnlineBlockData>) =>
    unpackOnlineUsers(block.value.data).users.map((u) => u.UserName);

  it('are packed once while only positions change, though every move makes a new snapshot', async () => {
    const { live, scope, clock } = await scopeWithTwoOnline();
    const first = scope.snapshot();
    const block = first.onlineBlock;
    live.reportPosition({ E_ID: 3, U_ID: 1, lat: 22.5, lon: 114, time: clock.now(), interval: 10 });
    await Promise.resolve();
    const second = scope.snapshot();
    expect(second).not.toBe(first);
    expect(second.onlineBlock).toBe(block);
    expect(namesIn(block)).toEqual(['User 1', 'User 2']);
  });

  it('are packed again when one logs out, one logs in, or an online user is renamed', async () => {
    const { live, scope, clock } = await scopeWithTwoOnline();
    const block = scope.snapshot().onlineBlock;
    live.reportPosition({
      E_ID: 3,
      U_ID: 2,
      UserName: 'Patrol 2',
      lat: 22.5,
      lon: 114,
      time: clock.now(),
      interval: 10,
    });
    await Promise.resolve();
    const renamed = scope.snapshot().onlineBlock;
    expect(renamed).not.toBe(block);
    expect(namesIn(renamed)).toEqual(['User 1', 'Patrol 2']);
    live.setOnline({ E_ID: 3, U_ID: 1 }, false);
    await Promise.resolve();
    const loggedOut = scope.snapshot().onlineBlock;
    expect(namesIn(loggedOut)).toEqual(['Patrol 2']);
    expect(loggedOut.value.data.count).toBe(1);
    live.setOnline({ E_ID: 3, U_ID: 7, Phone: '138000007', UserName: 'User 7' }, true);
    await Promise.resolve();
    expect(namesIn(scope.snapshot().onlineBlock)).toEqual(['Patrol 2', 'User 7']);
  });
});
