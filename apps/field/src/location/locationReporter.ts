import type { TerminalConfig } from '@intercom/contract';
import type { TerminalSocket } from '@intercom/terminal-client';
import type { FieldSession } from '../session/fieldSession';
import { Listeners } from '../shared/listeners';
import { fixOf, type Fix } from './fix';
import { FixQueue } from './fixQueue';
import { FixSender } from './fixSender';
import { DeferredFixStore, MemoryFixStore, type FixStore } from './fixStore';
import { openIdbFixStore } from './idbFixStore';
import { reportDue, type ReportConfig } from './reportPolicy';

export type GpsState = 'waiting' | 'ok' | 'denied' | 'unavailable' | 'off';

export interface LocationView {
  gps: GpsState;
  /** The newest fix the browser gave. */
  lastFix: Fix | undefined;
  /** Fixes waiting for the socket. */
  queued: number;
  /** When this view was made (epoch ms): the fix's age is read against it, renewed on each fix and report tick. */
  now: number;
}

const DEFAULT_CONFIG: ReportConfig = { interval: 60, distance: 0, mode: 'interval', enabled: true };

async function openStore(): Promise<FixStore> {
  try {
    return await openIdbFixStore();
  } catch {
    return new MemoryFixStore();
  }
}

/**
 * The worker's location: `watchPosition` fixes, reported at the login `config`'s interval and
 * distance (the first at once), through FixSender (queued while offline). A timer at the report
 * interval asks for a fresh fix when the watch stayed quiet (a phone lying still): none runs faster.
 */
export class LocationReporter {
  private current: LocationView = { gps: 'waiting', lastFix: undefined, queued: 0, now: Date.now() };
  private readonly listeners = new Listeners();
  private lastReported: Fix | undefined;
  private readonly sender: FixSender;
  private timer: ReturnType<typeof setInterval> | undefined;
  private timerPeriodMs = 0;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly session: FieldSession,
    private readonly geolocation: Geolocation | undefined = navigator.geolocation,
    store: Promise<FixStore> = openStore(),
  ) {
    // Made at once over the store that is still opening: a fix taken meanwhile waits for it, never lost.
    const queue = new FixQueue(new DeferredFixStore(store));
    this.sender = new FixSender(
      queue,
      () => this.onlineSocket(),
      (queued) => this.update({ queued }),
    );
  }

  subscribe = this.listeners.subscribe;

  get view(): LocationView {
    return this.current;
  }

  /** The newest fix, for an SOS or a man down alarm. */
  lastFix(): Fix | undefined {
    return this.current.lastFix;
  }

  start(): () => void {
    void this.sender.init().then(() => (this.onlineSocket() ? this.sender.flush() : undefined));
    this.stops.push(this.session.onReady(() => void this.sender.flush()));
    this.stops.push(this.session.subscribe(() => this.restartTimer()));
    if (!this.geolocation) this.update({ gps: 'unavailable' });
    else {
      const id = this.geolocation.watchPosition(this.onPosition, this.onError, { enableHighAccuracy: true });
      this.stops.push(() => this.geolocation?.clearWatch(id));
    }
    this.restartTimer();
    return () => {
      for (const stop of this.stops.splice(0)) stop();
      clearInterval(this.timer);
      this.timer = undefined;
    };
  }

  private config(): ReportConfig {
    const state = this.session.state;
    const config: TerminalConfig | undefined = state.kind === 'signedIn' ? state.config : undefined;
    return config ?? DEFAULT_CONFIG;
  }

  private onlineSocket(): TerminalSocket | undefined {
    const state = this.session.state;
    const socket = this.session.socket;
    return state.kind === 'signedIn' && state.online && socket?.isOpen ? socket : undefined;
  }

  private readonly onPosition = (position: GeolocationPosition) => {
    const fix = fixOf(position);
    this.update({ gps: this.config().enabled ? 'ok' : 'off', lastFix: fix, now: Date.now() });
    if (!reportDue(this.config(), this.lastReported, fix)) return;
    this.lastReported = fix;
    void this.sender.send(fix);
  };

  private readonly onError = (error: GeolocationPositionError) => {
    this.update({ gps: error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable' });
  };

  /** One timer at the report interval: re-made only when the interval changes. */
  private restartTimer(): void {
    const periodMs = Math.max(1, this.config().interval) * 1000;
    if (this.timer !== undefined && periodMs === this.timerPeriodMs) return;
    clearInterval(this.timer);
    this.timerPeriodMs = periodMs;
    this.timer = setInterval(() => this.onTick(), periodMs);
  }

  private onTick(): void {
    this.update({ now: Date.now() });
    if (this.onlineSocket() && this.current.queued > 0) void this.sender.flush();
    const last = this.lastReported;
    const quiet = !last || Date.now() - last.time >= this.timerPeriodMs - 250;
    if (quiet && this.config().enabled && this.current.gps !== 'denied') {
      this.geolocation?.getCurrentPosition(this.onPosition, this.onError, { maximumAge: 0, timeout: 15_000 });
    }
  }

  private update(change: Partial<LocationView>): void {
    this.current = { ...this.current, ...change };
    this.listeners.notify();
  }
}
