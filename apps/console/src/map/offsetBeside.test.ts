import { describe, expect, it } from 'vitest';
import { offsetBeside } from './offsetBeside';

const rect = (left: number, top: number, width: number, height: number) => ({
  left,
  top,
  right: left + width,
  bottom: top + height,
});

describe('offsetBeside', () => {
  it('without a card the target stays in the middle', () => {
    expect(offsetBeside(rect(0, 0, 800, 600), undefined)).toEqual([0, 0]);
    // A card not laid out (display none) covers nothing.
    expect(offsetBeside(rect(0, 0, 800, 600), rect(12, 200, 0, 0))).toEqual([0, 0]);
  });

  it('a card in the lower left puts the target in the middle of the strip to its right', () => {
    // Map 538..1264 wide (a desktop page), card 551..851: the strip 851..1264 has its middle at 1057.5.
    const [x, y] = offsetBeside(rect(538, 148, 726, 628), rect(551, 348, 300, 396));
    expect(x).toBe(1057.5 - 901);
    expect(y).toBe(0);
  });

  it('the strip to the right may be narrow (the talk panel open beside the map), not under 80 px', () => {
    const map = rect(538, 148, 426, 628);
    expect(offsetBeside(map, rect(551, 348, 300, 396))).toEqual([(851 + 964) / 2 - 751, 0]);
    expect(offsetBeside(rect(538, 148, 392, 628), rect(551, 348, 300, 396))[0]).toBe(0);
  });

  it('on a phone the card spans the map: the target goes above it', () => {
    // Map 0..390 x 100..800, card 12..378 x 380..768: the space above it is 100..380, middle 240.
    expect(offsetBeside(rect(0, 100, 390, 700), rect(12, 380, 366, 388))).toEqual([0, 240 - 450]);
  });

  it('a card that leaves no room either way moves nothing', () => {
    expect(offsetBeside(rect(0, 0, 390, 400), rect(12, 40, 366, 340))).toEqual([0, 0]);
  });
});
