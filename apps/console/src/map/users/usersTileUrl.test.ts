import { describe, expect, test } from 'vitest';
import { isTile, newTileWorkerKey, parseUsersTileUrl } from './usersTileUrl';

describe('parseUsersTileUrl', () => {
  test('reads the worker key and the tile', () => {
    expect(parseUsersTileUrl('users://3fa9/14/13357/7124')).toEqual({ key: '3fa9', z: 14, x: 13357, y: 7124 });
    expect(parseUsersTileUrl('users://1/0/0/0')).toEqual({ key: '1', z: 0, x: 0, y: 0 });
  });

  test('a new key is one the URL accepts, and differs each time', () => {
    const key = newTileWorkerKey();
    expect(parseUsersTileUrl(`users://${key}/0/0/0`)?.key).toBe(key);
    expect(newTileWorkerKey()).not.toBe(key);
  });

  test.each([
    'users://1/2/4/0',
    'users://1/2/0/4',
    'users://1/25/0/0',
    'users://1/-1/0/0',
    'users://1/1.5/0/0',
    'users://xyz/1/0/0',
    'users://1/1/0',
    'users://1/1/0/0?x',
    'users:///1/0/0',
    'https://example.com/1/0/0/0',
    '',
  ])('refuses %j', (url) => {
    expect(parseUsersTileUrl(url)).toBeUndefined();
  });
});

describe('isTile', () => {
  test.each([
    [0, 0, 0, true],
    [3, 7, 7, true],
    [3, 8, 0, false],
    [3, 0, -1, false],
    [25, 0, 0, false],
    [1.5, 0, 0, false],
    ['1', 0, 0, false],
    [null, 0, 0, false],
    [Number.NaN, 0, 0, false],
  ])('z %j x %j y %j: %j', (z, x, y, ok) => {
    expect(isTile(z, x, y)).toBe(ok);
  });
});
