import { expect } from 'vitest';

/** One scrape of `/metrics` from this machine (no token, no proxy: allowed). */
export async function scrapeMetrics(origin: string): Promise<string> {
  const res = await fetch(`${origin}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one series (name with its labels as printed); 0 when it is not there yet. */
export function seriesValue(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/** Reads several series at once, so a test can compare before and after. */
export async function readSeries(origin: string, series: readonly string[]): Promise<Record<string, number>> {
  const text = await scrapeMetrics(origin);
  return Object.fromEntries(series.map((s) => [s, seriesValue(text, s)]));
}

/** How far each series of `after` moved since `before` (a series missing from `before` counts from 0). */
export function seriesDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)]));
}
