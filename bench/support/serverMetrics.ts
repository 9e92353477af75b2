// The server's own Prometheus figures around a bench phase (/metrics answers loopback callers).

/** One scrape of `/metrics`: each series (name and labels as printed) and its value. */
export async function scrapeMetrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const space = line.lastIndexOf(' ');
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

/**
 * Percentiles of histogram `name` over what it observed between two scrapes, each as the upper bound
 * of the bucket it falls in (seconds; null: beyond the largest bucket), and the observations.
 */
export function histogramBetween(
  before: Map<string, number>,
  after: Map<string, number>,
  name: string,
  percentiles: readonly number[],
): { count: number; atMostSeconds: Record<string, number | null> } {
  const buckets: [number, number][] = [];
  for (const [series, value] of after) {
    const match = new RegExp(`^${name}_bucket\\{le="([^"]+)"\\}$`).exec(series);
    if (!match?.[1]) continue;
    buckets.push([match[1] === '+Inf' ? Infinity : Number(match[1]), value - (before.get(series) ?? 0)]);
  }
  buckets.sort((x, y) => x[0] - y[0]);
  const count = (after.get(`${name}_count`) ?? 0) - (before.get(`${name}_count`) ?? 0);
  const atMostSeconds: Record<string, number | null> = {};
  for (const p of percentiles) {
    const bound = count === 0 ? undefined : buckets.find(([, cumulative]) => cumulative >= (p / 100) * count)?.[0];
    atMostSeconds[`p${p}`] = bound === undefined || !Number.isFinite(bound) ? null : bound;
  }
  return { count, atMostSeconds };
}
