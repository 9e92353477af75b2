import { describe, expect, it } from 'vitest';
import { profileFormValues, profileValueText, validateProfile } from './locationProfile';

describe('location profiles', () => {
  it('round-trips a stored value through the form', () => {
    const values = profileFormValues('Patrol', '{"interval":30,"distance":50,"mode":"both"}');
    expect(values).toEqual({ scName: 'Patrol', interval: 30, distance: 50, mode: 'both' });
    expect(JSON.parse(profileValueText(values))).toEqual({ interval: 30, distance: 50, mode: 'both' });
    expect(validateProfile(values)).toEqual([]);
  });

  it('names the field that is wrong', () => {
    const fields = (v: Parameters<typeof validateProfile>[0]) => validateProfile(v).map((e) => e.field);
    expect(fields({ scName: '', interval: 60, distance: 0, mode: 'interval' })).toEqual(['scName']);
    expect(fields({ scName: 'a', interval: 0, distance: 0, mode: 'interval' })).toEqual(['interval']);
    expect(fields({ scName: 'a', interval: 86_401, distance: 0, mode: 'interval' })).toEqual(['interval']);
    expect(fields({ scName: 'a', interval: 60, distance: 10_001, mode: 'both' })).toEqual(['distance']);
    // Reporting by distance needs a distance.
    expect(fields({ scName: 'a', interval: 60, distance: 0, mode: 'distance' })).toEqual(['distance']);
    expect(fields({ scName: 'x'.repeat(33), interval: null, distance: null, mode: 'both' })).toEqual([
      'scName',
      'interval',
      'distance',
    ]);
  });
});
