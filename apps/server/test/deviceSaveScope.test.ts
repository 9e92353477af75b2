// postgres: tenancy checks in device writes through the API.
import { describe, expect, it } from 'vitest';
import { expectFailure } from './helper.js';
import { body, countRows, tenant, uniqueIccid } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

/** Issue 16: Device/Save checks the scope before the form, so no answer depends on another enterprise. */

const t = useTestApp();

describe('POST /api/Device/Save scope first', () => {
  it("answers another enterprise's E_ID or device with 4004 whatever the form holds, as an unknown id", async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = body<{ D_ID: number }>(await b.api.post('/api/Device/Save', { ICCID: uniqueIccid(20) }));
    const before = await countRows(t, 'device', b.E_ID);
    const forms: Record<string, string>[] = [
      { E_ID: String(b.E_ID), ICCID: 'not an iccid' },
      { E_ID: String(b.E_ID) },
      { E_ID: ` ${b.E_ID} `, Priority: '99' },
      { E_ID: '2147483000', ICCID: 'bad' },
      { D_ID: String(theirs.D_ID), NickName: 'x'.repeat(500) },
      { D_ID: String(theirs.D_ID), Priority: '-1' },
      { D_ID: '2147483000', Priority: '-1' },
    ];
    for (const form of forms) {
      expectFailure(await a.api.post('/api/Device/Save', form), 404, 4004, 'error.not_found');
    }
    expectFailure(await a.api.postJson('/api/Device/Save', { E_ID: b.E_ID, ICCID: 12 }), 404, 4004, 'error.not_found');
    expect(await countRows(t, 'device', b.E_ID)).toBe(before);
  });

  it('still validates the form of its own enterprise (4000) and saves a valid one', async () => {
    const a = await tenant(t);
    expectFailure(
      await a.api.post('/api/Device/Save', { E_ID: String(a.E_ID), ICCID: 'bad' }),
      400,
      4000,
      'user.iccid_length',
    );
    expectFailure(
      await a.api.post('/api/Device/Save', { E_ID: 'abc', ICCID: uniqueIccid(20) }),
      400,
      4000,
      'validation.not_number',
    );
    const saved = body<{ E_ID: number }>(
      await a.api.post('/api/Device/Save', { E_ID: String(a.E_ID), ICCID: uniqueIccid(20) }),
    );
    expect(saved.E_ID).toBe(a.E_ID);
  });
});
