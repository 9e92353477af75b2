import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A number read when Prometheus scrapes, from the part that owns it (hub, gateway, writer). */
export type Reading = () => number;

/**
 * The Prometheus metrics of one server instance (one registry per app, so tests that build several
 * apps in one process count separately). Counters and histograms are updated where things happen;
 * gauges are read at scrape time through `read`, so nothing is kept twice.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'intercom_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern (hub long polls are held up to 90 s by design)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 100],
    registers: [this.registry],
  });

  readonly fixesIngested = new Counter({
    name: 'intercom_fixes_ingested_total',
    help: 'Position fixes committed to the location history (each one acknowledged after this)',
    registers: [this.registry],
  });

  readonly heartRatesIngested = new Counter({
    name: 'intercom_heart_rates_ingested_total',
    help: 'Heart-rate readings committed',
    registers: [this.registry],
  });

  readonly historyCommit = new Histogram({
    name: 'intercom_history_commit_seconds',
    help: 'Time of one history writer transaction (a batch of fixes and heart rates)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly historyFailures = new Counter({
    name: 'intercom_history_commit_failures_total',
    help: 'History batches the database refused (kept and retried; their fixes wait unacknowledged)',
    registers: [this.registry],
  });

  readonly loginFailures = new Counter({
    name: 'intercom_login_failures_total',
    help: 'Refused logins: console accounts and terminals, by reason',
    labelNames: ['kind', 'reason'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaults?: boolean } = {}) {
    // Process CPU, memory, event-loop lag, GC: what to look at first when latency grows.
    if (options.defaults !== false) collectDefaultMetrics({ register: this.registry, prefix: 'intercom_' });
  }

  /** A gauge whose value comes from `reading` at scrape time. */
  read(name: string, help: string, reading: Reading): void {
    // An app rebuilt on the same deps (tests) reads from its new parts.
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(reading());
      },
    });
  }

  /** The exposition text (and its content type) for one scrape. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
