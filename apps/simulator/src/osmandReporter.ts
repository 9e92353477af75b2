import { KNOTS_TO_KMH, OSMAND_PATH } from '@intercom/contract';
import type { SimDevice } from './device.js';
import type { FleetStats } from './stats.js';

/** Seconds between OsmAnd reports when --interval is not given (Traccar Client's default is 300). */
export const OSMAND_DEFAULT_INTERVAL = 10;

/** A location-only tracker: one OsmAnd request (as Traccar Client sends it) per interval. */
export class OsmandReporter {
  private timer: NodeJS.Timeout | undefined;
  private lastStep = Date.now();

  constructor(
    private readonly url: string,
    private readonly phone: string,
    private readonly device: SimDevice,
    private readonly stats: FleetStats,
    private readonly intervalSeconds: number,
  ) {}

  start(): void {
    const ms = this.intervalSeconds * 1000;
    this.timer = setTimeout(() => {
      void this.report();
      this.timer = setInterval(() => void this.report(), ms);
    }, Math.random() * ms);
  }

  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
  }

  private async report(): Promise<void> {
    const now = Date.now();
    const reading = this.device.step((now - this.lastStep) / 1000);
    this.lastStep = now;
    const query = new URLSearchParams({
      id: this.phone,
      lat: reading.position.lat.toFixed(6),
      lon: reading.position.lon.toFixed(6),
      timestamp: String(Math.floor(now / 1000)),
      speed: (reading.speedKmh / KNOTS_TO_KMH).toFixed(1),
      bearing: reading.course.toFixed(0),
      accuracy: '8',
      batt: String(reading.battery),
    });
    this.stats.fixes += 1;
    try {
      const response = await fetch(`${this.url}${OSMAND_PATH}?${query}`, { method: 'POST' });
      await response.arrayBuffer();
      if (response.ok) this.stats.acked += 1;
      else this.stats.error(`http_${response.status}`);
    } catch {
      this.stats.error('network');
    }
  }
}
