import { describe, expect, it } from 'vitest';
import { simplifyLine, WINDOW } from './simplifyLine';

/** Degrees of latitude per metre. */
const M = 1 / 111_320;

describe('simplifyLine', () => {
  it('keeps a line of two points and the ends of a straight run, dropping what lies between', () => {
    expect(
      simplifyLine(
        [
          [0, 0],
          [0, 1],
        ],
        1,
      ),
    ).toEqual([
      [0, 0],
      [0, 1],
    ]);
    const straight = Array.from({ length: 500 }, (_, i): [number, number] => [121.47, 31.23 + i * 10 * M]);
    expect(simplifyLine(straight, 1)).toEqual([straight[0], straight[499]]);
    // A long run keeps one point per window of 512 besides its ends.
    const day = Array.from({ length: 86_400 }, (_, i): [number, number] => [121.47, 31.23 + i * 10 * M]);
    expect(simplifyLine(day, 1)).toHaveLength(Math.ceil(86_399 / 512) + 1);
  });

  it('keeps a corner and a bend over the tolerance, drops a wobble under it', () => {
    const corner: [number, number][] = [
      [0, 0],
      [0, 50 * M],
      [0, 100 * M],
      [50 * M, 100 * M],
    ];
    expect(simplifyLine(corner, 1)).toEqual([corner[0], corner[2], corner[3]]);
    const bend = (metres: number): [number, number][] => [
      [0, 0],
      [metres * M, 50 * M],
      [0, 100 * M],
    ];
    expect(simplifyLine(bend(2), 1)).toHaveLength(3);
    expect(simplifyLine(bend(0.5), 1)).toHaveLength(2);
  });

  it('measures east-west in metres at the line latitude, not in degrees', () => {
    // 1.5 m east at 60 degrees north is 3e-5 degrees of longitude: kept at 1 m, dropped at 2 m.
    const east = 1.5 / (111_320 * Math.cos(Math.PI / 3));
    const line: [number, number][] = [
      [10, 60],
      [10 + east, 60 + 50 * M],
      [10, 60 + 100 * M],
    ];
    expect(simplifyLine(line, 1)).toHaveLength(3);
    expect(simplifyLine(line, 2)).toHaveLength(2);
  });

  it('keeps every point of a day of zigzag with work linear in its length, and points that go back on themselves', () => {
    const zigzag = Array.from({ length: 100_000 }, (_, i): [number, number] => [(i % 2) * 5 * M, i * M]);
    const work = { measured: 0 };
    expect(simplifyLine(zigzag, 1, work)).toHaveLength(100_000);
    // Plain Douglas-Peucker is quadratic on a zigzag: every point is measured against segments of
    // the whole line, some 5e9 measures (over a minute). Windows bound it at WINDOW per point.
    expect(work.measured).toBeLessThanOrEqual(zigzag.length * WINDOW);
    expect(work.measured).toBeGreaterThan(zigzag.length);
    const back: [number, number][] = [
      [0, 0],
      [0, 100 * M],
      [0, 20 * M],
    ];
    expect(simplifyLine(back, 1)).toEqual(back);
  });
});
