import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A number read when Prometheus scrapes, from the part that owns it (hub, gateway, writer). */
export type Reading = () => number;

/** Numbers per value of one label (a few fixed values, never ids), read when Prometheus scrapes. */
export type LabelledReading = () => Record<string, number>;

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

  readonly livePushAge = new Histogram({
    name: 'intercom_live_push_age_seconds',
    help: "Per live push handed to a console's hub connection: time since this instance's live state took its oldest change",
    buckets: [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10],
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

  /** Talk events (not per frame: the relay counts frames itself, read at scrape through `readCounter`). */
  readonly talk = {
    floorsGranted: new Counter({
      name: 'intercom_talk_floors_granted_total',
      help: 'Floors granted to a talker connected here (a grant across instances counts once, where the talker is)',
      registers: [this.registry],
    }),
    floorGrant: new Histogram({
      name: 'intercom_talk_floor_grant_seconds',
      help: 'From the floor event that granted (usually the floorRequest) to the grant; a shared floor includes Redis',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    }),
    floorsRefused: new Counter({
      name: 'intercom_talk_floors_refused_total',
      help: 'Floor requests refused, by reason (busy: taken at equal or higher priority; unavailable: Redis failed)',
      labelNames: ['reason'] as const,
      registers: [this.registry],
    }),
    floorsRevoked: new Counter({
      name: 'intercom_talk_floors_revoked_total',
      help: 'Floors taken from a talker connected here, by reason (preempted, timeout, silence, flooding)',
      labelNames: ['reason'] as const,
      registers: [this.registry],
    }),
    callsStarted: new Counter({
      name: 'intercom_talk_calls_started_total',
      help: 'Private calls connected, counted on the caller instance',
      registers: [this.registry],
    }),
    recordingsWritten: new Counter({
      name: 'intercom_talk_recordings_written_total',
      help: 'Burst recordings stored (file and row)',
      registers: [this.registry],
    }),
    recordingBytes: new Counter({
      name: 'intercom_talk_recording_bytes_total',
      help: 'Bytes of the Ogg Opus files of stored recordings',
      registers: [this.registry],
    }),
    leaseRenewLate: new Histogram({
      name: 'intercom_talk_lease_renew_late_seconds',
      help: 'How much later than its step (leaseMs / 8) the holder instance renewed a shared floor lease; a stalled event loop shows here, and a lateness near the lease loses the floor',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 3],
      registers: [this.registry],
    }),
    recordingsFailed: new Counter({
      name: 'intercom_talk_recordings_failed_total',
      help: 'Burst recordings that could not be stored (disk, database); the log has each',
      registers: [this.registry],
    }),
  };

  constructor(options: { defaults?: boolean } = {}) {
    // Process CPU, memory, event-loop lag, GC: what to look at first when latency grows.
    if (options.defaults !== false) collectDefaultMetrics({ register: this.registry, prefix: 'intercom_' });
  }

  /** A gauge whose value comes from `reading` at scrape time. */
  read(name: string, help: string, reading: Reading): void {
    this.atScrape(Gauge, name, help, undefined, () => ({ '': reading() }));
  }

  /** Gauges with one label whose values come from `reading` at scrape time. */
  readLabelled(name: string, help: string, label: string, reading: LabelledReading): void {
    this.atScrape(Gauge, name, help, label, reading);
  }

  /**
   * A counter kept by the part that counts (a plain number on a hot path: a frame relayed costs one
   * addition), read at scrape time.
   */
  readCounter(name: string, help: string, reading: Reading): void {
    this.atScrape(Counter, name, help, undefined, () => ({ '': reading() }));
  }

  /** Counters with one label (a few fixed values), kept by the part that counts, read at scrape time. */
  readCounters(name: string, help: string, label: string, reading: LabelledReading): void {
    this.atScrape(Counter, name, help, label, reading);
  }

  /**
   * A metric (without a label, `reading` keyed by '') refilled from `reading` at each scrape: reset,
   * then added to, which for a gauge is the same as setting it.
   */
  private atScrape(
    Metric: typeof Gauge | typeof Counter,
    name: string,
    help: string,
    label: string | undefined,
    reading: LabelledReading,
  ): void {
    // An app rebuilt on the same deps (tests) reads from its new parts.
    this.registry.removeSingleMetric(name);
    new Metric({
      name,
      help,
      labelNames: label === undefined ? [] : [label],
      registers: [this.registry],
      collect(this: Gauge | Counter) {
        this.reset();
        for (const [value, n] of Object.entries(reading())) this.inc(label === undefined ? {} : { [label]: value }, n);
      },
    });
  }

  /** The exposition text (and its content type) for one scrape. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
