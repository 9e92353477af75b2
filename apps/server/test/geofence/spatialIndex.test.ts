import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedRTree, type Box } from '../../src/modules/geofence/spatialIndex.js';

const overlaps = (a: Box, b: Box) => a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;

const box = fc
  .tuple(
    fc.double({ min: -180, max: 180, noNaN: true }),
    fc.double({ min: -90, max: 90, noNaN: true }),
    fc.double({ min: 0, max: 20, noNaN: true }),
    fc.double({ min: 0, max: 20, noNaN: true }),
  )
  .map(([x, y, w, h]): Box => ({ minX: x, minY: y, maxX: x + w, maxY: y + h }));

describe('PackedRTree', () => {
  it('finds exactly the boxes a scan would find, for any set of boxes and any query', () => {
    fc.assert(
      fc.property(
        fc.array(box, { maxLength: 600 }),
        fc.array(box, { minLength: 1, maxLength: 20 }),
        (boxes, queries) => {
          const tree = new PackedRTree(boxes.map((b, i) => ({ box: b, item: i })));
          for (const query of queries) {
            const expected = boxes.flatMap((b, i) => (overlaps(b, query) ? [i] : []));
            expect(tree.search(query).sort((a, b) => a - b)).toEqual(expected);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answers with nothing when empty, and with the one box when it holds one', () => {
    const all = { minX: -180, minY: -90, maxX: 180, maxY: 90 };
    expect(new PackedRTree<number>([]).search(all)).toEqual([]);
    const one = new PackedRTree([{ box: { minX: 1, minY: 1, maxX: 2, maxY: 2 }, item: 'a' }]);
    expect(one.search({ minX: 1.5, minY: 1.5, maxX: 1.5, maxY: 1.5 })).toEqual(['a']);
    expect(one.search({ minX: 3, minY: 3, maxX: 3, maxY: 3 })).toEqual([]);
  });

  it('finds the one box a point lies in among 10,000 small ones (the per-fix case)', () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => {
      const x = (i % 100) * 0.01;
      const y = Math.floor(i / 100) * 0.01;
      return { box: { minX: x, minY: y, maxX: x + 0.005, maxY: y + 0.005 }, item: i };
    });
    const tree = new PackedRTree(entries);
    expect(tree.size).toBe(10_000);
    expect(tree.search({ minX: 0.502, minY: 0.302, maxX: 0.502, maxY: 0.302 })).toEqual([3050]);
    expect(tree.search({ minX: 0.507, minY: 0.302, maxX: 0.507, maxY: 0.302 })).toEqual([]);
  });
});
