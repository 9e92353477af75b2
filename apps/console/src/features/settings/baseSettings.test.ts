import { describe, expect, it } from 'vitest';
import { baseConfigChanges, baseConfigValues, baseFormValues, validateBaseSettings } from './baseSettings';

describe('base settings', () => {
  it('reads the defaults and writes them back unchanged', () => {
    const values = baseFormValues({});
    expect(values).toMatchObject({ mapChoice: 'OFFLINE', VideoEnable: false, ChannelTypeID: [106] });
    expect(baseConfigChanges(values, {})).toEqual([]);
  });

  it('keeps an XYZ address as the own tile server', () => {
    const url = 'https://tiles.example.com/{z}/{x}/{y}.png';
    const values = baseFormValues({ DefaultMap: url });
    expect(values).toMatchObject({ mapChoice: 'CUSTOM', mapUrl: url });
    expect(baseConfigValues(values).DefaultMap).toBe(url);
  });

  it('sends only what changed, with the channel types in one order', () => {
    const config = { ChannelTypeID: '106,103', VideoEnable: 'FALSE' };
    const values = {
      ...baseFormValues(config),
      ChannelTypeID: [103, 106],
      VideoEnable: true,
      mapChoice: 'NONE' as const,
    };
    expect(baseConfigChanges(values, config)).toEqual([
      { code: 'DefaultMap', value: 'NONE' },
      { code: 'VideoEnable', value: 'TRUE' },
    ]);
  });

  it('reads and writes the push-to-talk limits, refusing values out of range or cleared', () => {
    const values = baseFormValues({ TalkMaxSeconds: '90', DispatchPriority: '5' });
    expect(values).toMatchObject({ TalkMaxSeconds: 90, DispatchPriority: 5 });
    expect(
      baseConfigChanges({ ...values, TalkMaxSeconds: 120 }, { TalkMaxSeconds: '90', DispatchPriority: '5' }),
    ).toEqual([{ code: 'TalkMaxSeconds', value: '120' }]);
    const fields = (v: Partial<typeof values>) => validateBaseSettings({ ...values, ...v }).map((e) => e.field);
    expect(fields({})).toEqual([]);
    expect(fields({ TalkMaxSeconds: 4 })).toEqual(['TalkMaxSeconds']);
    expect(fields({ TalkMaxSeconds: 601 })).toEqual(['TalkMaxSeconds']);
    expect(fields({ TalkMaxSeconds: 12.5 })).toEqual(['TalkMaxSeconds']);
    expect(fields({ TalkMaxSeconds: null, DispatchPriority: null })).toEqual(['TalkMaxSeconds', 'DispatchPriority']);
    expect(fields({ DispatchPriority: 8 })).toEqual(['DispatchPriority']);
    expect(fields({ DispatchPriority: -1 })).toEqual(['DispatchPriority']);
  });

  it('puts each refused value under its own field', () => {
    const values = {
      ...baseFormValues({}),
      mapChoice: 'CUSTOM' as const,
      mapUrl: 'https://tiles.example.com/{z}/{x}.png',
      GPSServer: 'gps server',
      ChannelTypeID: [],
      WebChatConfig: '[1]',
    };
    expect(validateBaseSettings(values).map((e) => e.field)).toEqual([
      'mapUrl',
      'GPSServer',
      'ChannelTypeID',
      'WebChatConfig',
    ]);
  });
});
