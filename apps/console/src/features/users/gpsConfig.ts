import { tk } from '../../i18n/tk';

/** The GPS parameter of a user as the forms show it; stored as '' or `{"enabled":..,"interval":..}`. */
export interface GpsFormValues {
  /** Follow the enterprise's current location profile (stored as ''). */
  gpsFollow: boolean;
  gpsEnabled: boolean;
  /** Seconds between reports. */
  gpsInterval: number | null;
}

export const DEFAULT_GPS_INTERVAL = 60;

export function gpsFormValues(config: string): GpsFormValues {
  if (!config) return { gpsFollow: true, gpsEnabled: true, gpsInterval: DEFAULT_GPS_INTERVAL };
  try {
    const parsed = JSON.parse(config) as { enabled?: unknown; interval?: unknown };
    return {
      gpsFollow: false,
      gpsEnabled: parsed.enabled !== false,
      gpsInterval: typeof parsed.interval === 'number' ? parsed.interval : DEFAULT_GPS_INTERVAL,
    };
  } catch {
    return { gpsFollow: true, gpsEnabled: true, gpsInterval: DEFAULT_GPS_INTERVAL };
  }
}

/** The stored text; an interval left empty stays out, so the contract's check names it. */
export function gpsConfigText(values: Partial<GpsFormValues>): string {
  if (values.gpsFollow !== false) return '';
  const config: { enabled: boolean; interval?: number | string } = { enabled: values.gpsEnabled !== false };
  if (values.gpsEnabled !== false) config.interval = values.gpsInterval ?? '';
  return JSON.stringify(config);
}

/** How the list shows a GPS parameter. */
export function gpsSummary(config: string): { key: string; params?: Record<string, number> } {
  const values = gpsFormValues(config);
  if (values.gpsFollow) return { key: tk('users.gps_follow_short') };
  if (!values.gpsEnabled) return { key: tk('users.gps_off') };
  return { key: tk('users.gps_every'), params: { seconds: values.gpsInterval ?? DEFAULT_GPS_INTERVAL } };
}
