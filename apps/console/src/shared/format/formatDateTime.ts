import dayjs from 'dayjs';

/** How much of a time a screen shows: the day, to the minute, or to the second. */
export type TimePrecision = 'day' | 'minute' | 'second';

const FORMATS: Record<TimePrecision, string> = {
  day: 'YYYY-MM-DD',
  minute: 'YYYY-MM-DD HH:mm',
  second: 'YYYY-MM-DD HH:mm:ss',
};

/** A time from the API (epoch milliseconds) in the browser's time zone, as every screen writes it. */
export function formatDateTime(value: number, precision: TimePrecision = 'minute'): string {
  return dayjs(value).format(FORMATS[precision]);
}
