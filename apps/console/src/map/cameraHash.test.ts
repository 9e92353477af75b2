import { describe, expect, test } from 'vitest';
import { cameraInHash, flatCameraHash } from './cameraHash';

describe('cameraInHash', () => {
  test.each(['#12.5/22.54/114.06', '#12.5/22.54/114.06/-20', '#3/40/-74/30.5/60', '12/0/0', '#12/1/2&other=x'])(
    'a camera MapLibre restores: %j',
    (hash) => {
      expect(cameraInHash(hash, 75)).toBe(true);
    },
  );

  test.each([
    '',
    '#',
    '#users',
    '#12/22.5',
    '#12/a/114',
    '#12//114',
    '#23/0/0',
    '#-1/0/0',
    '#5/91/0',
    '#5/0/0/181',
    '#5/0/0/0/80',
    '#5/0/0/0/-1',
  ])('no camera: %j', (hash) => {
    expect(cameraInHash(hash, 75)).toBe(false);
  });
});

describe('flatCameraHash', () => {
  test.each([
    ['#12/22.55/114.06/30/50', '#12/22.55/114.06'],
    ['#12/22.55/114.06/-25', '#12/22.55/114.06'],
    ['#3/40/-74/30.5/60&other=x', '#3/40/-74&other=x'],
    ['#12/22.55/114.06', '#12/22.55/114.06'],
    ['', ''],
    ['#users', '#users'],
  ])('%j opens flat as %j', (hash, flat) => {
    expect(flatCameraHash(hash)).toBe(flat);
    // What it gives is a camera the 2D map (pitch at most 0) restores whenever the 3D map would have.
    expect(cameraInHash(flatCameraHash(hash), 0)).toBe(cameraInHash(hash, 75));
  });
});
