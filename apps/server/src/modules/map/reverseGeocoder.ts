import type { GeocodeReason } from '@intercom/contract';
import { LruCache } from '../../core/lruCache.js';

export interface GeocoderOptions {
  /** Nominatim-compatible base URL (`/reverse` is appended unless it ends with it); undefined: none. */
  url: string | undefined;
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

/** Coordinates are rounded to 4 decimals (about 11 m) for the cache and the request. */
const round = (value: number) => Math.round(value * 1e4) / 1e4;

/**
 * Reverse geocoding through a Nominatim-compatible service: cached (rounded coordinates, bounded
 * LRU), one request per key in flight, rate limited (a caller waits for its turn no longer than the
 * timeout), and every failure (timeout, HTTP error, bad JSON) answered as `failed`, never thrown.
 */
export class ReverseGeocoder {
  private readonly cache: LruCache<string, string | null>;
  private readonly inFlight = new Map<string, Promise<GeocodeResult>>();
  private nextSlot = 0;
  private readonly endpoint: string | undefined;
  /** Requests actually sent (tests and logs). */
  requests = 0;

  constructor(private readonly options: GeocoderOptions) {
    this.cache = new LruCache(options.cacheSize ?? 10_000);
    const url = options.url?.replace(/\/+$/, '');
    this.endpoint = url && (url.endsWith('/reverse') ? url : `${url}/reverse`);
  }

  get configured(): boolean {
    return this.endpoint !== undefined;
  }

  async reverse(lat: number, lon: number, language = 'en'): Promise<GeocodeResult> {
    if (!this.endpoint) return { address: null, reason: 'not_configured' };
    const key = `${round(lat)},${round(lon)},${language}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached === null ? { address: null, reason: 'failed' } : { address: cached };
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetchAddress(this.endpoint, key, round(lat), round(lon), language).finally(() =>
        this.inFlight.delete(key),
      );
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async fetchAddress(
    endpoint: string,
    key: string,
    lat: number,
    lon: number,
    language: string,
  ): Promise<GeocodeResult> {
    const started = Date.now();
    const wait = this.takeSlot(started);
    if (wait >= this.options.timeoutMs) return { address: null, reason: 'failed' };
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const url = new URL(endpoint);
    url.search = new URLSearchParams({
      format: 'jsonv2',
      lat: String(lat),
      lon: String(lon),
      zoom: '18',
      'accept-language': language,
    }).toString();
    try {
      this.requests++;
      const response = await fetch(url, {
        headers: { 'User-Agent': this.options.userAgent ?? 'IntercomPlatform/0.1 (dispatch map reverse geocoding)' },
        signal: AbortSignal.timeout(Math.max(1, this.options.timeoutMs - wait)),
      });
      if (!response.ok) return { address: null, reason: 'failed' };
      const body = (await response.json()) as { display_name?: unknown; error?: unknown };
      const address =
        typeof body.display_name === 'string' && body.display_name ? body.display_name.slice(0, 512) : null;
      // "Unable to geocode" (open sea) is an answer worth keeping; errors of the service are not.
      if (address !== null || typeof body.error === 'string') this.cache.set(key, address);
      return address === null ? { address: null, reason: 'failed' } : { address };
    } catch {
      return { address: null, reason: 'failed' };
    }
  }

  /** Milliseconds until this request may go out; books the slot. */
  private takeSlot(now: number): number {
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / this.options.ratePerSecond;
    return slot - now;
  }
}
