import { describe, expect, it } from 'vitest';
import { PlaybackClock, speedLabel, PLAYBACK_SPEEDS } from './PlaybackClock';

/** A clock driven by hand: `advance(ms)` moves the wall clock and runs the pending frame. */
function manualClock(begin: number, end: number) {
  let wall = 0;
  let pending: (() => void) | undefined;
  const clock = new PlaybackClock(
    begin,
    end,
    () => wall,
    (step) => {
      pending = step;
      return 1;
    },
    () => {
      pending = undefined;
    },
  );
  clock.load(begin, end, [{ begin: begin + 10_000, end: begin + 70_000, lat: 0, lon: 0 }]);
  const advance = (ms: number) => {
    wall += ms;
    const step = pending;
    pending = undefined;
    step?.();
  };
  return { clock, advance };
}

describe('PlaybackClock', () => {
  it('shows speeds as fractions below one and multiples above', () => {
    expect(PLAYBACK_SPEEDS.map(speedLabel)).toEqual([
      '1/8x',
      '1/4x',
      '1/2x',
      '1x',
      '2x',
      '4x',
      '8x',
      '16x',
      '32x',
      '64x',
    ]);
  });

  it('follows time, not fixes: start, pause, continue, stop', () => {
    const { clock, advance } = manualClock(1000, 1_000_000);
    clock.play();
    advance(100);
    expect(clock.get()).toMatchObject({ state: 'playing', time: 1000 + 100 * 16 });
    clock.pause();
    advance(1000);
    expect(clock.get()).toMatchObject({ state: 'paused', time: 2600 });
    clock.play();
    advance(50);
    expect(clock.get().time).toBe(2600 + 800);
    clock.stop();
    expect(clock.get()).toMatchObject({ state: 'stopped', time: 1000 });
  });

  it('steps the speed within 1/8x..64x and pauses at the end', () => {
    const { clock, advance } = manualClock(0, 10_000);
    for (let i = 0; i < 20; i++) clock.changeSpeed(1);
    expect(clock.speed).toBe(64);
    for (let i = 0; i < 20; i++) clock.changeSpeed(-1);
    expect(clock.speed).toBe(1 / 8);
    clock.changeSpeed(1);
    clock.play();
    advance(100_000);
    expect(clock.get()).toMatchObject({ state: 'paused', time: 10_000 });
    clock.play();
    expect(clock.get().time).toBe(0);
  });

  it('skips stops when asked, and seeks within the track', () => {
    const { clock, advance } = manualClock(0, 1_000_000);
    clock.setSkipStops(true);
    clock.play();
    advance(1000);
    expect(clock.get().time).toBe(70_000);
    clock.seek(-5);
    expect(clock.get().time).toBe(0);
    clock.seek(5_000_000);
    expect(clock.get().time).toBe(1_000_000);
  });
});
