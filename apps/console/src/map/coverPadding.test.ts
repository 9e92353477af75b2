import { describe, expect, it } from 'vitest';
import { coverPadding } from './coverPadding';

describe('coverPadding', () => {
  it('a side panel pads the map by the part of it the panel covers', () => {
    // 1,440 px: the map runs to 1,424 px, a 340 px panel starts at 1,100.
    expect(
      coverPadding({ right: 1424, bottom: 876 }, { side: 'right', size: 340 }, { width: 1440, height: 900 }),
    ).toEqual({ top: 0, bottom: 0, left: 0, right: 324 });
  });

  it("a phone's sheet pads the map's bottom", () => {
    // 390 x 844: the map ends at 828, a 354 px sheet starts at 490.
    expect(
      coverPadding({ right: 378, bottom: 828 }, { side: 'bottom', size: 354 }, { width: 390, height: 844 }),
    ).toEqual({ top: 0, bottom: 338, left: 0, right: 0 });
  });

  it('a panel that does not reach the map pads nothing', () => {
    expect(
      coverPadding({ right: 700, bottom: 600 }, { side: 'right', size: 340 }, { width: 1440, height: 900 }).right,
    ).toBe(0);
    expect(
      coverPadding({ right: 700, bottom: 400 }, { side: 'bottom', size: 354 }, { width: 1440, height: 900 }).bottom,
    ).toBe(0);
  });
});
