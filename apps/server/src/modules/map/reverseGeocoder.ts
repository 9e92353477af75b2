import type { GeocodeReason } from '@intercom/contract';
import { systemClock, type Clock, type ClockTimer } from '../../core/clock.js';
import { FairQueue } from '../../core/fairQueue.js';
import { LruCache } from '../../core/lruCache.js';

export interface GeocoderOptions {
  /** Nominatim-compatible base URL (`/reverse` is appended unless it ends with it); undefined: none. */
  url: string | undefined;
  /** Longest wait for one address, queueing included. */
  timeoutMs: number;
  /** Requests per second sent to the geocoder (Nominatim's public policy is 1). */
  ratePerSecond: number;
  cacheSize?: number;
  userAgent?: string;
}

export interface GeocodeResult {
  address: string | null;
  reason?: GeocodeReason;
}

const FAILED: GeocodeResult = { address: null, reason: 'failed' };
const NOT_CONFIGURED: GeocodeResult = { address: null, reason: 'not_configured' };

/** Waiting lookups never exceed this, whatever the rate and timeout (memory bound). */
const MAX_QUEUE = 10_000;

/** Coordinates are rounded to 4 decimals (about 11 m) for the cache and the request. */
const round = (value: number) => Math.round(value * 1e4) / 1e4;

interface Waiter {
  tenant: number;
  resolve: (result: GeocodeResult) => void;
  timer: ClockTimer | undefined;
}

/** One address to ask for; the lookups of any tenant for the same key wait on it together. */
interface Job {
  key: string;
  lat: number;
  lon: number;
  language: string;
  sent: boolean;
  waiters: Set<Waiter>;
  /** Tenants that hold a place in the queue for this job (until it is sent). */
  tickets: Set<number>;
}

/**
 * Reverse geocoding through a Nominatim-compatible service, shared fairly by the enterprises.
 *
 * - Cached (rounded coordinates, bounded LRU): a cached answer is given at once, never queued.
 * - One request per key at a time; every lookup of that key waits on it.
 * - Rate limited: a request goes out no sooner than `1 / ratePerSecond` after the last one. Only a
 *   request that really goes out uses a turn; a refused, evicted or timed-out lookup uses none.
 * - Waiting lookups queue per enterprise and are served round robin ({@link FairQueue}). The queue
 *   holds what the geocoder can send within one timeout (rate x timeout): a lookup beyond that would
 *   time out anyway. When it is full, the enterprise holding the most gives up its newest place, so
 *   an enterprise over its share gets `failed` while the others keep theirs.
 * - Every lookup answers within its timeout; every failure (timeout, refusal, HTTP error, bad JSON) is
 *   `failed`, never thrown.
 */
export class ReverseGeocoder {
  private readonly cache: LruCache<string, string | null>;
  private readonly jobs = new Map<string, Job>();
  private readonly queue: FairQueue<Job>;
  private readonly endpoint: string | undefined;
  private readonly intervalMs: number;
  private nextSendAt = -Infinity;
  private wakeUp: ClockTimer | undefined;
  /** Requests actually sent (tests and logs). */
  requests = 0;
  /** Requests sent and not answered yet. */
  inFlight = 0;

  constructor(
    private readonly options: GeocoderOptions,
    /** The rate's and the timeouts' time (AppDeps.clock): tests step through the queue instead of sleeping. */
    private readonly clock: Clock = systemClock,
  ) {
    this.cache = new LruCache(options.cacheSize ?? 10_000);
    const url = options.url?.replace(/\/+$/, '');
    this.endpoint = url && (url.endsWith('/reverse') ? url : `${url}/reverse`);
    this.intervalMs = 1000 / options.ratePerSecond;
    const perTimeout = Math.floor((options.ratePerSecond * options.timeoutMs) / 1000);
    this.queue = new FairQueue(Math.min(MAX_QUEUE, Math.max(1, perTimeout)));
  }

  get configured(): boolean {
    return this.endpoint !== undefined;
  }

  /** Lookups waiting for their turn, in all or of one enterprise. */
  queued(tenant?: number): number {
    return tenant === undefined ? this.queue.size : this.queue.sizeOf(tenant);
  }

  /** The address at a point, for a lookup on behalf of enterprise `tenant`. */
  reverse(tenant: number, lat: number, lon: number, language = 'en'): Promise<GeocodeResult> {
    if (!this.endpoint) return Promise.resolve(NOT_CONFIGURED);
    const key = `${round(lat)},${round(lon)},${language}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return Promise.resolve(cached === null ? FAILED : { address: cached });
    let job = this.jobs.get(key);
    if (!job || (!job.sent && !job.tickets.has(tenant))) {
      // Another enterprise's place in the queue is not borrowed: each waits its own turn for the key.
      job ??= { key, lat: round(lat), lon: round(lon), language, sent: false, waiters: new Set(), tickets: new Set() };
      const admission = this.queue.add(tenant, job);
      if (!admission.admitted) return Promise.resolve(FAILED);
      job.tickets.add(tenant);
      this.jobs.set(key, job);
      if (admission.evicted) this.leave(admission.evicted.item, admission.evicted.tenant);
    }
    const joined = job;
    const answer = new Promise<GeocodeResult>((resolve) => {
      const waiter: Waiter = { tenant, resolve, timer: undefined };
      waiter.timer = this.clock.timeout(() => this.expire(joined, waiter), this.options.timeoutMs);
      joined.waiters.add(waiter);
    });
    this.pump();
    return answer;
  }

  /** Sends what may go now, round robin, and sets one wake-up for the next turn. */
  private pump(): void {
    if (this.wakeUp !== undefined) return;
    while (this.queue.size > 0) {
      const now = this.clock.now();
      if (now < this.nextSendAt) {
        this.wakeUp = this.clock.timeout(() => {
          this.wakeUp = undefined;
          this.pump();
        }, this.nextSendAt - now);
        return;
      }
      const next = this.queue.shift();
      if (next) this.send(next.item, now);
    }
  }

  private send(job: Job, now: number): void {
    this.nextSendAt = now + this.intervalMs;
    job.sent = true;
    for (const tenant of job.tickets) this.queue.remove(tenant, job);
    job.tickets.clear();
    this.requests++;
    this.inFlight++;
    void this.fetchAddress(job).then((result) => {
      this.inFlight--;
      this.jobs.delete(job.key);
      for (const waiter of job.waiters) this.answer(waiter, result);
      job.waiters.clear();
    });
  }

  /** A lookup's timeout: it answers `failed`; if it was its enterprise's last wish for the job, the place goes. */
  private expire(job: Job, waiter: Waiter): void {
    job.waiters.delete(waiter);
    waiter.resolve(FAILED);
    if (job.sent) return;
    for (const other of job.waiters) if (other.tenant === waiter.tenant) return;
    this.queue.remove(waiter.tenant, job);
    this.leave(job, waiter.tenant);
  }

  /** Enterprise `tenant` no longer waits for the unsent `job` (evicted or timed out): its lookups fail now. */
  private leave(job: Job, tenant: number): void {
    job.tickets.delete(tenant);
    for (const waiter of job.waiters) {
      if (waiter.tenant !== tenant) continue;
      job.waiters.delete(waiter);
      this.answer(waiter, FAILED);
    }
    if (job.tickets.size === 0) this.jobs.delete(job.key);
  }

  private answer(waiter: Waiter, result: GeocodeResult): void {
    waiter.timer?.cancel();
    waiter.resolve(result);
  }

  private async fetchAddress(job: Job): Promise<GeocodeResult> {
    const url = new URL(this.endpoint as string);
    url.search = new URLSearchParams({
      format: 'jsonv2',
      lat: String(job.lat),
      lon: String(job.lon),
      zoom: '18',
      'accept-language': job.language,
    }).toString();
    try {
      const response = await fetch(url, {
        headers: { 'User-Agent': this.options.userAgent ?? 'IntercomPlatform/0.1 (dispatch map reverse geocoding)' },
        // Lookups that wait on it give up at their own timeout; the answer is still cached if it comes.
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) return FAILED;
      const body = (await response.json()) as { display_name?: unknown; error?: unknown };
      const address =
        typeof body.display_name === 'string' && body.display_name ? body.display_name.slice(0, 512) : null;
      // "Unable to geocode" (open sea) is an answer worth keeping; errors of the service are not.
      if (address !== null || typeof body.error === 'string') this.cache.set(job.key, address);
      return address === null ? FAILED : { address };
    } catch {
      return FAILED;
    }
  }
}
