import {
  LocationLimits,
  parseLocationValue,
  saveLocationConfigSchema,
  type FieldError,
  type LocationMode,
  type LocationValue,
} from '@intercom/contract';
import { tk } from '../../i18n/tk';
import { contractErrors } from '../../shared/form/contractErrors';

export interface LocationProfileValues {
  scName: string;
  interval: number | null;
  distance: number | null;
  mode: LocationMode;
}

export const MODE_LABELS: Record<LocationMode, string> = {
  interval: tk('settings.mode_interval'),
  distance: tk('settings.mode_distance'),
  both: tk('settings.mode_both'),
};

export const MODE_HINTS: Record<LocationMode, string> = {
  interval: tk('settings.mode_interval_hint'),
  distance: tk('settings.mode_distance_hint'),
  both: tk('settings.mode_both_hint'),
};

/** The stored JSON of a profile as its form fields. */
export function profileFormValues(name: string, scValue: string): LocationProfileValues {
  const value = parseLocationValue(scValue);
  return {
    scName: name,
    interval: value?.interval ?? 60,
    distance: value?.distance ?? 0,
    mode: value?.mode ?? 'interval',
  };
}

export function profileValueText(values: LocationProfileValues): string {
  return JSON.stringify({ interval: values.interval, distance: values.distance, mode: values.mode });
}

const isWhole = (n: number | null, min: number, max: number) =>
  n !== null && Number.isInteger(n) && n >= min && n <= max;

/**
 * The contract's checks of a profile, each under its own field (the server's one
 * `location.bad_value` on scValue would not say which number is wrong).
 */
export function validateProfile(values: LocationProfileValues): FieldError[] {
  const errors = contractErrors(saveLocationConfigSchema, { scName: values.scName ?? '', scValue: '{}' }).filter(
    (error) => error.field === 'scName',
  );
  if (!isWhole(values.interval, LocationLimits.intervalMin, LocationLimits.intervalMax)) {
    errors.push({ field: 'interval', key: tk('settings.interval_range') });
  }
  if (!isWhole(values.distance, LocationLimits.distanceMin, LocationLimits.distanceMax)) {
    errors.push({ field: 'distance', key: tk('settings.distance_range') });
  } else if (values.mode === 'distance' && values.distance === 0) {
    errors.push({ field: 'distance', key: tk('settings.distance_needed') });
  }
  return errors;
}

/** One line that says how terminals report with a value ("every 60 s", ...). */
export function describeValue(value: LocationValue): { key: string; params: Record<string, number> } {
  const params = { interval: value.interval, distance: value.distance };
  if (value.mode === 'distance') return { key: tk('settings.describe_distance'), params };
  if (value.mode === 'both') return { key: tk('settings.describe_both'), params };
  return { key: tk('settings.describe_interval'), params };
}
