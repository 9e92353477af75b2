import { describe, expect, test } from 'vitest';
import { COLUMN_SIDES, columnFeatures, columnsKey, MAX_COLUMNS, type ColumnUser } from './userColumns';

const user = (id: number, state = 'online', lat = 22.5): ColumnUser => ({
  id,
  cluster: false,
  lon: 114,
  lat,
  state,
  count: 1,
});
const cluster = (id: number, count: number): ColumnUser => ({
  id,
  cluster: true,
  lon: 114,
  lat: 22.5,
  state: '',
  count,
});

describe('columnFeatures', () => {
  test('a user is a closed hexagon around its place, with its id and state', () => {
    const [feature] = columnFeatures([user(7, 'sos')], 12).features;
    const ring = feature!.geometry.coordinates[0]!;
    expect(ring).toHaveLength(COLUMN_SIDES + 1);
    expect(ring[0]).toEqual(ring[COLUMN_SIDES]);
    const lons = ring.map((point) => point[0]!);
    const lats = ring.map((point) => point[1]!);
    expect((Math.min(...lons) + Math.max(...lons)) / 2).toBeCloseTo(114, 6);
    expect((Math.min(...lats) + Math.max(...lats)) / 2).toBeCloseTo(22.5, 6);
    expect(feature!.properties).toMatchObject({ id: 7, cluster: false, state: 'sos' });
  });

  test('keeps its size on screen: a zoom further in halves the metres', () => {
    const height = (zoom: number) => Number(columnFeatures([user(1)], zoom).features[0]!.properties!.height);
    expect(height(13) / height(12)).toBeCloseTo(0.5, 6);
    // 40 px of about 18 m at zoom 12 near Shenzhen: some 700 m.
    expect(height(12)).toBeGreaterThan(100);
    expect(height(12)).toBeLessThan(1000);
  });

  test('an SOS user stands taller than an online one; a cluster the taller the more it holds', () => {
    const heights = columnFeatures([user(1), user(2, 'sos'), cluster(3, 10), cluster(4, 1000)], 10).features.map(
      (feature) => Number(feature.properties!.height),
    );
    expect(heights[1]).toBeGreaterThan(heights[0]!);
    expect(heights[3]).toBeGreaterThan(heights[2]!);
  });

  test(`draws at most ${MAX_COLUMNS} columns`, () => {
    const many = Array.from({ length: MAX_COLUMNS + 10 }, (_, id) => user(id));
    expect(columnFeatures(many, 16).features).toHaveLength(MAX_COLUMNS);
  });
});

describe('columnsKey', () => {
  test('is the same for the same users and zoom, and changes with a move, a state or the zoom', () => {
    const key = columnsKey([user(1), user(2)], 12);
    expect(columnsKey([user(1), user(2)], 12)).toBe(key);
    expect(columnsKey([user(1), user(2, 'online', 22.6)], 12)).not.toBe(key);
    expect(columnsKey([user(1), user(2, 'sos')], 12)).not.toBe(key);
    expect(columnsKey([user(1), user(2)], 12.25)).not.toBe(key);
    expect(columnsKey([user(1)], 12)).not.toBe(key);
  });
});
