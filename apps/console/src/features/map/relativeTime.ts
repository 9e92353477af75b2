const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/**
 * "2 min ago" in the given language (Intl.RelativeTimeFormat, no library). A time after `now` (a
 * terminal's clock a little ahead of this one) reads "now": a fix never comes from the future.
 */
export function relativeTime(time: number, now: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' });
  const elapsed = Math.min(0, time - now);
  for (const [unit, size] of UNITS) {
    if (Math.abs(elapsed) >= size || unit === 'second') return format.format(Math.round(elapsed / size), unit);
  }
  return format.format(0, 'second');
}
