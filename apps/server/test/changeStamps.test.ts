import { describe, expect, it } from 'vitest';
import { FakeClock } from '../src/core/clock.js';
import { logged, org, saveChannel } from './channelFixtures.js';
import { body, uniqueIccid } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

/**
 * Issue 50, goal 1: a change made through the API is stamped with the app's clock (AppDeps.clock),
 * its log row too, so a test in fake time sees the times it set and not the machine's. The clock
 * starts now (a login's envelope carries the real time) and is then moved ten minutes on, well away from
 * anything Date.now could give (and within the session's idle limit, which reads the same clock).
 */
const clock = new FakeClock(Date.now());
const t = useTestApp({ clock });
const TEN_MINUTES = 10 * 60_000;

describe('change stamps', () => {
  it("stamps a new channel, device and the log rows with the app's clock", async () => {
    const a = await org(t);
    await clock.advance(TEN_MINUTES);
    const at = clock.now();
    const channel = await saveChannel(a.api);
    expect(channel.CreatedAt).toBe(at);
    const device = body<{ D_ID: number }>(await a.api.post('/api/Device/Save', { ICCID: uniqueIccid(20) }));
    const stored = await t.db
      .selectFrom('device')
      .select('CreatedAt')
      .where('D_ID', '=', device.D_ID)
      .executeTakeFirst();
    expect(stored?.CreatedAt).toBe(at);
    const rows = await logged(t, a.E_ID, 'channel_create');
    expect(rows.map((row) => Number(row.CreatedAt))).toEqual([at]);
  });
});
