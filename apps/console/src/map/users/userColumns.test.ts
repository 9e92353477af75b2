import { describe, expect, test } from 'vitest';
import { COLUMN_SIDES, columnFeatures, DrawnColumns, MAX_COLUMNS, type ColumnUser } from './userColumns';

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

describe('DrawnColumns', () => {
  const moved = (base: ColumnUser, lat: number): ColumnUser => ({ ...base, lat });

  test('the first users, and every zoom change, send every column', () => {
    const drawn = new DrawnColumns();
    const first = drawn.next([user(1), user(2)], 12);
    expect(first).toEqual({ all: columnFeatures([user(1), user(2)], 12) });
    const zoomed = drawn.next([user(1), user(2)], 12.25);
    expect(zoomed && 'all' in zoomed ? zoomed.all.features.map((feature) => feature.id) : null).toEqual(['u1', 'u2']);
  });

  test('the same users at the same zoom send nothing', () => {
    const drawn = new DrawnColumns();
    drawn.next([user(1), user(2)], 12);
    expect(drawn.next([user(1), user(2)], 12)).toBeNull();
  });

  test('a batch sends only the columns that came, went, moved or changed', () => {
    const drawn = new DrawnColumns();
    const many = Array.from({ length: 1000 }, (_, id) => user(id));
    drawn.next(many, 12);
    const next = [...many.slice(1)];
    next[10] = moved(next[10]!, 22.6);
    next[20] = user(21, 'sos');
    next.push(cluster(5, 40));
    const change = drawn.next(next, 12);
    if (!change || !('diff' in change)) throw new Error(`expected a difference, got ${JSON.stringify(change)}`);
    const { remove, add, update } = change.diff;
    expect(remove).toEqual(['u0']);
    expect(add?.map((feature) => feature.id)).toEqual(['c5']);
    expect(update?.map((one) => one.id)).toEqual(['u11', 'u21']);
    const sos = update?.find((one) => one.id === 'u21');
    expect(sos?.addOrUpdateProperties).toContainEqual({ key: 'state', value: 'sos' });
    // The moved column's new footprint is centred on its new place, sized as a new one would be.
    expect(update?.find((one) => one.id === 'u11')?.newGeometry).toEqual(
      columnFeatures([moved(user(11), 22.6)], 12).features[0]!.geometry,
    );
  });

  test(`a user beyond the first ${MAX_COLUMNS} is neither drawn nor sent`, () => {
    const drawn = new DrawnColumns();
    const many = Array.from({ length: MAX_COLUMNS + 1 }, (_, id) => user(id));
    drawn.next(many, 12);
    const last = many.length - 1;
    many[last] = moved(many[last]!, 23);
    expect(drawn.next(many, 12)).toBeNull();
  });
});
