import type { LocationProfileRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from './helper.js';
import { colleague, data, form, logged, org, rows } from './channelFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

const value = (v: object) => JSON.stringify(v);

describe('location-report profiles (/api/Enterprise)', () => {
  it('LocrptSet gives the default until a profile is made current', async () => {
    const a = await org(t);
    expect(data(await a.api.get(`/api/Enterprise/LocrptSet/${a.E_ID}`))).toEqual({
      E_ID: a.E_ID,
      SC_ID: 0,
      SCName: '',
      SCValue: value({ interval: 60, distance: 0, mode: 'interval' }),
      interval: 60,
      distance: 0,
      mode: 'interval',
    });
    expect(rows(await a.api.get(`/api/Enterprise/GetLocationConfig/${a.E_ID}`)).total).toBe(0);
  });

  it('saves named profiles, makes one current, edits and lists them; each change is logged', async () => {
    const a = await org(t);
    const city = data<LocationProfileRow>(
      await a.api.post(
        '/api/Enterprise/SaveLocationConfig',
        form({ scName: '城市', scValue: value({ interval: 30, distance: 50, mode: 'both' }) }),
      ),
    );
    expect(city).toMatchObject({ E_ID: a.E_ID, SCName: '城市', IsCurrent: 0 });
    const road = data<LocationProfileRow>(
      await a.api.postJson('/api/Enterprise/SaveLocationConfig', {
        scName: 'Road',
        scValue: value({ interval: 300, distance: 500, mode: 'distance' }),
      }),
    );
    const current = data<Record<string, unknown>>(
      await a.api.post('/api/Enterprise/SaveCurrentLocationConfig', form({ scID: road.SC_ID })),
    );
    expect(current).toMatchObject({
      SC_ID: road.SC_ID,
      SCName: 'Road',
      interval: 300,
      distance: 500,
      mode: 'distance',
    });
    expect(
      data(await a.api.post('/api/Enterprise/SaveCurrentLocationConfig', form({ scID: city.SC_ID }))),
    ).toMatchObject({ SC_ID: city.SC_ID });
    const list = rows<LocationProfileRow>(await a.api.get(`/api/Enterprise/GetLocationConfig/${a.E_ID}`));
    expect(list.rows.map((p) => [p.SCName, p.IsCurrent])).toEqual([
      ['城市', 1],
      ['Road', 0],
    ]);
    const edited = data<LocationProfileRow>(
      await a.api.post(
        '/api/Enterprise/SaveLocationConfig',
        form({ scID: city.SC_ID, scName: '城市2', scValue: value({ mode: 'interval', interval: 10, distance: 0 }) }),
      ),
    );
    expect(edited).toMatchObject({
      SC_ID: city.SC_ID,
      SCName: '城市2',
      IsCurrent: 1,
      SCValue: value({ interval: 10, distance: 0, mode: 'interval' }),
    });
    expect(data(await a.api.get(`/api/Enterprise/LocrptSet/${a.E_ID}`))).toMatchObject({
      SC_ID: city.SC_ID,
      interval: 10,
    });
    expect(await logged(t, a.E_ID, 'location_profile_save')).toHaveLength(3);
    expect(await logged(t, a.E_ID, 'location_profile_current')).toHaveLength(2);
    expectFailure(
      await a.api.delete(`/api/Enterprise/DeleteLocationConfig/${city.SC_ID}`),
      409,
      4009,
      'location.current_delete',
    );
    expectSuccess(await a.api.delete(`/api/Enterprise/DeleteLocationConfig/${road.SC_ID}`));
    expect(rows(await a.api.get(`/api/Enterprise/GetLocationConfig/${a.E_ID}`)).total).toBe(1);
  });

  it.each([
    ['not JSON', 'interval=30'],
    ['an interval of 0', value({ interval: 0, distance: 0, mode: 'interval' })],
    ['an interval over a day', value({ interval: 86_401, distance: 0, mode: 'interval' })],
    ['a negative distance', value({ interval: 30, distance: -1, mode: 'both' })],
    ['a distance over 10 km', value({ interval: 30, distance: 10_001, mode: 'both' })],
    ['distance mode with no distance', value({ interval: 30, distance: 0, mode: 'distance' })],
    ['an unknown mode', value({ interval: 30, distance: 0, mode: 'sometimes' })],
    ['an unknown key', value({ interval: 30, distance: 0, mode: 'interval', extra: 1 })],
    ['a fractional interval', value({ interval: 1.5, distance: 0, mode: 'interval' })],
    ['an array', '[30, 0, "interval"]'],
  ])('refuses scValue with %s (location.bad_value), storing nothing', async (_name, scValue) => {
    const a = await org(t);
    const res = await a.api.post('/api/Enterprise/SaveLocationConfig', form({ scName: 'p', scValue }));
    expect(expectFailure(res, 400, 4000, 'location.bad_value').Data).toEqual([
      { field: 'scValue', key: 'location.bad_value' },
    ]);
    expect(rows(await a.api.get(`/api/Enterprise/GetLocationConfig/${a.E_ID}`)).total).toBe(0);
  });

  it('refuses a duplicate or empty name, a foreign profile or enterprise (4004), and editors (4003)', async () => {
    const a = await org(t);
    const b = await org(t);
    const ok = value({ interval: 30, distance: 0, mode: 'interval' });
    const mine = data<LocationProfileRow>(
      await a.api.post('/api/Enterprise/SaveLocationConfig', form({ scName: 'Day', scValue: ok })),
    );
    const theirs = data<LocationProfileRow>(
      await b.api.post('/api/Enterprise/SaveLocationConfig', form({ scName: 'Day', scValue: ok })),
    );
    expectFailure(
      await a.api.post('/api/Enterprise/SaveLocationConfig', form({ scName: 'Day', scValue: ok })),
      409,
      4009,
      'common.name_exists',
    );
    expectFailure(
      await a.api.post('/api/Enterprise/SaveLocationConfig', form({ scName: ' ', scValue: ok })),
      400,
      4000,
      'validation.required',
    );
    expectFailure(
      await a.api.post('/api/Enterprise/SaveLocationConfig', form({ scName: 'x'.repeat(33), scValue: ok })),
      400,
      4000,
      'validation.too_long',
    );
    expectFailure(
      await a.api.post('/api/Enterprise/SaveCurrentLocationConfig', form({ scID: theirs.SC_ID })),
      404,
      4004,
    );
    expectFailure(
      await a.api.post('/api/Enterprise/SaveLocationConfig', form({ scID: theirs.SC_ID, scName: 'Mine', scValue: ok })),
      404,
      4004,
    );
    expectFailure(
      await a.api.post('/api/Enterprise/SaveLocationConfig', form({ eid: b.E_ID, scName: 'Mine', scValue: ok })),
      404,
      4004,
    );
    expectFailure(await a.api.delete(`/api/Enterprise/DeleteLocationConfig/${theirs.SC_ID}`), 404, 4004);
    expectFailure(await a.api.get(`/api/Enterprise/GetLocationConfig/${b.E_ID}`), 404, 4004);
    expectFailure(await a.api.get(`/api/Enterprise/LocrptSet/${b.E_ID}`), 404, 4004);
    const editor = await colleague(t, a, 'editor');
    expectFailure(
      await editor.api.post('/api/Enterprise/SaveLocationConfig', form({ scName: 'Night', scValue: ok })),
      403,
      4003,
      'error.forbidden',
    );
    expectFailure(
      await editor.api.post('/api/Enterprise/SaveCurrentLocationConfig', form({ scID: mine.SC_ID })),
      403,
      4003,
    );
    expectFailure(await editor.api.delete(`/api/Enterprise/DeleteLocationConfig/${mine.SC_ID}`), 403, 4003);
    expect(rows(await editor.api.get(`/api/Enterprise/GetLocationConfig/${a.E_ID}`)).total).toBe(1);
    expect(data(await editor.api.get(`/api/Enterprise/LocrptSet/${a.E_ID}`))).toMatchObject({ SC_ID: 0 });
    expect(
      data<LocationProfileRow>(
        await b.api.post('/api/Enterprise/SaveCurrentLocationConfig', form({ scID: theirs.SC_ID })),
      ),
    ).toMatchObject({ SC_ID: theirs.SC_ID });
  });
});

describe('type configs', () => {
  it('seeds default point and line types once per enterprise, logged once', async () => {
    const a = await org(t);
    const editor = await colleague(t, a, 'editor');
    const [first, second] = await Promise.all([
      editor.api.get('/api/GISPoint/GetMyType'),
      editor.api.get('/api/GISPoint/GetMyType'),
    ]);
    const points = rows<{ ID: number; Name: string; Option: string }>(first);
    expect(points.rows.map((p) => p.Name)).toEqual(['Base', 'Checkpoint', 'Danger']);
    expect(rows(second).rows).toEqual(points.rows);
    expect(JSON.parse(points.rows[0]?.Option ?? '{}')).toMatchObject({
      icon: 'point-base',
      iconSize: [25, 41],
      iconAnchor: [12, 41],
    });
    const lines = rows<{ Name: string; Option: string }>(await a.api.get('/api/GISLine/GetMyType'));
    expect(lines.rows.map((l) => l.Name)).toEqual(['Patrol route', 'Boundary']);
    expect(JSON.parse(lines.rows[1]?.Option ?? '{}')).toEqual({ color: '#f5222d', width: 2, dash: [4, 2] });
    expect(rows(await a.api.get('/api/GISPoint/GetMyType')).total).toBe(3);
    expect((await logged(t, a.E_ID, 'gis_types_seed')).map((r) => r.Target).sort()).toEqual(['line', 'point']);
    const b = await org(t);
    expectFailure(await b.api.get(`/api/GISPoint/GetMyType?eID=${a.E_ID}`), 404, 4004);
  });

  it('lists user types with state icons: the built-in default and enterprise types, missing states filled in', async () => {
    const a = await org(t);
    const custom = {
      icon: 'truck-sos',
      iconSize: [32, 32],
      iconAnchor: [16, 32],
      popupAnchor: [0, -30],
      shadowSize: [0, 0],
      shadowAnchor: [0, 0],
    };
    await t.db
      .insertInto('gis_type')
      .values([
        {
          E_ID: a.E_ID,
          Kind: 'user',
          Name: 'Truck',
          Option: JSON.stringify({ states: { sos: custom, online: { icon: 1 } } }),
        },
        { E_ID: a.E_ID, Kind: 'user', Name: 'Broken', Option: 'not json' },
      ])
      .execute();
    const types = rows<{
      ID: number;
      Name: string;
      Option: string;
      States: Record<string, { icon: string; iconSize: number[] }>;
    }>(await a.api.get('/api/GISUser/GetMyType'));
    expect(types.rows.map((u) => u.Name)).toEqual(['default', 'Truck', 'Broken']);
    const [builtIn, truck, broken] = types.rows;
    expect(Object.keys(builtIn?.States ?? {}).sort()).toEqual(['locked', 'offline', 'online', 'sos', 'talking']);
    expect(builtIn?.States.online).toMatchObject({ icon: 'user-online', iconSize: [25, 41] });
    expect(JSON.parse(builtIn?.Option ?? '{}')).toHaveProperty('states.sos.popupAnchor');
    expect(truck?.States.sos).toEqual(custom);
    expect(truck?.States.online?.icon).toBe('user-online');
    expect(broken?.States.offline?.icon).toBe('user-offline');
  });
});
