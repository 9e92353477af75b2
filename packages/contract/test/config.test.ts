import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_MAPS,
  SYS_CONFIG_CODES,
  SYS_CONFIG_DEFAULTS,
  mapHidden,
  modifyConfigSchema,
  sysConfigValueSchemas,
  type SysConfigCode,
} from '../src/index.js';

const accepts = (code: SysConfigCode, value: string) => sysConfigValueSchemas[code].safeParse(value).success;

describe('sysConfigValueSchemas', () => {
  it('accepts every default', () => {
    for (const code of SYS_CONFIG_CODES) expect(accepts(code, SYS_CONFIG_DEFAULTS[code]), code).toBe(true);
  });

  it('has a default for every code and nothing else', () => {
    expect(Object.keys(SYS_CONFIG_DEFAULTS).sort()).toEqual([...SYS_CONFIG_CODES].sort());
  });

  it.each([
    ['VideoEnable', 'TRUE', true],
    ['VideoEnable', 'FALSE', true],
    ['VideoEnable', 'yes', false],
    ['VideoEnable', 'true', false],
    ['RecordEnable', '', false],
    ['ChannelTypeID', '106', true],
    ['ChannelTypeID', '103,105,106,107', true],
    ['ChannelTypeID', '103, 107', true],
    ['ChannelTypeID', '999', false],
    ['ChannelTypeID', '103,103', false],
    ['ChannelTypeID', '', false],
    ['ChannelTypeID', '103,', false],
    ['WebChatConfig', '', true],
    ['WebChatConfig', '{"url":"wss://chat"}', true],
    ['WebChatConfig', 'not json', false],
    ['WebChatConfig', '[1]', false],
    ['WebChatConfig', 'null', false],
    ['WebChatConfig', '"text"', false],
    ['DefaultMap', 'OFFLINE', true],
    ['DefaultMap', 'OSM', true],
    ['DefaultMap', 'AMAP', true],
    ['DefaultMap', 'NONE', true],
    ['DefaultMap', 'FOO', false],
    ['DefaultMap', 'osm', false],
    ['DefaultMap', 'https://t.example.com/{z}/{x}/{y}.png', true],
    ['DefaultMap', 'http://10.0.0.2:8080/tiles/{z}/{x}/{y}', true],
    ['DefaultMap', 'https://t.example.com/{z}/{x}.png', false],
    ['DefaultMap', 'ftp://t.example.com/{z}/{x}/{y}', false],
    ['DefaultMap', 'javascript:alert(1)//{z}{x}{y}', false],
    ['DefaultMap', 'https://t.example.com/{z}/{x}/{y} .png', false],
    ['SubjectBg', '', true],
    ['SubjectBg', 'bg_1.png', true],
    ['SubjectBg', '../bg.png', false],
    ['SubjectBg', 'bg.svg', false],
    ['SubjectLogo', 'Logo.PNG', false],
    ['GPSServer', '', true],
    ['GPSServer', 'gps.example.com:9000', true],
    ['GPSServer', 'gps example', false],
    ['GPSServer', 'gps;rm -rf', false],
  ] as const)('%s = %j is %s', (code, value, ok) => {
    expect(accepts(code, value)).toBe(ok);
  });

  it('refuses any value over its length limit', () => {
    expect(accepts('WebChatConfig', JSON.stringify({ a: 'x'.repeat(4096) }))).toBe(false);
    expect(accepts('DefaultMap', `https://t.example.com/${'a'.repeat(500)}/{z}/{x}/{y}`)).toBe(false);
  });

  it('accepts as ChannelTypeID exactly the non-empty, duplicate-free lists of audio types', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('103', '105', '106', '107', '104', '1', ''), { maxLength: 5 }), (parts) => {
        const expected =
          parts.length > 0 &&
          parts.every((p) => ['103', '105', '106', '107'].includes(p)) &&
          new Set(parts).size === parts.length;
        expect(accepts('ChannelTypeID', parts.join(','))).toBe(expected);
      }),
    );
  });

  it('never throws on any string, only accepts or refuses', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SYS_CONFIG_CODES), fc.string({ unit: 'binary', maxLength: 64 }), (code, value) => {
        expect(typeof sysConfigValueSchemas[code].safeParse(value).success).toBe('boolean');
      }),
    );
  }, 30_000); // a hundred runs: over 5 s with three suites on two slow cores
});

describe('modifyConfigSchema', () => {
  it('requires a code and a string value', () => {
    expect(modifyConfigSchema.safeParse({ scCode: 'DefaultMap', scValue: 'OSM' }).success).toBe(true);
    expect(modifyConfigSchema.safeParse({ scCode: '', scValue: 'OSM' }).success).toBe(false);
    expect(modifyConfigSchema.safeParse({ scCode: 'DefaultMap' }).success).toBe(false);
  });
});

describe('mapHidden (SPEC.md 2: the map route is hidden when the setting contains NONE)', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['OFFLINE', false],
    ['OSM', false],
    ['NONE', true],
    ['none', true],
    ['OSM,NONE', true],
  ])('%j -> %s', (value, hidden) => {
    expect(mapHidden(value)).toBe(hidden);
  });

  it('hides no built-in map but NONE', () => {
    expect(BUILTIN_MAPS.filter((m) => mapHidden(m))).toEqual(['NONE']);
  });
});
