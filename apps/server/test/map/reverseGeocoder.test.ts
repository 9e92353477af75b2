import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock, ClockTimer } from '../../src/core/clock.js';
import { ReverseGeocoder, type GeocodeResult } from '../../src/modules/map/reverseGeocoder.js';

/** Time that moves only when a test says so, at once (no awaits between timers); due timers fire in order. */
class ManualClock implements Clock {
  time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  now = (): number => this.time;
  timeout = (callback: () => void, ms: number): ClockTimer => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, callback });
    return { cancel: () => this.timers.delete(id) };
  };
  interval = (): ClockTimer => {
    throw new Error('the geocoder sets no interval');
  };

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = end;
  }
}

/** A Nominatim stand-in in this process: answers at once and remembers the order of the latitudes asked. */
let server: http.Server;
let baseUrl: string;
const seen: number[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const lat = Number(url.searchParams.get('lat'));
    seen.push(lat);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ display_name: `Addr ${lat},${url.searchParams.get('lon')}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

const A = 1;
const B = 2;
const C = 3;

function geocoderAt(ratePerSecond: number, timeoutMs: number) {
  const clock = new ManualClock();
  return { clock, geocoder: new ReverseGeocoder({ url: baseUrl, ratePerSecond, timeoutMs }, clock) };
}

/** Records when each lookup answered, so a test can tell "at once" from "after the clock moved". */
function track(promise: Promise<GeocodeResult>) {
  const state: { result?: GeocodeResult } = {};
  void promise.then((result) => (state.result = result));
  return state;
}

/**
 * Lets answered promises and the local server's replies settle (real I/O, no clock involved): waits
 * until no request of `geocoder` is in flight, however long a loaded machine takes to answer, so a
 * later `clock.advance` never times out a request that was only slow in real time.
 */
async function settle(geocoder: ReverseGeocoder): Promise<void> {
  do await new Promise((resolve) => setTimeout(resolve, 10));
  while (geocoder.inFlight > 0);
}

describe('ReverseGeocoder queue', () => {
  it('refused and timed-out lookups use no turn: the next lookup after them goes out at once', async () => {
    const { clock, geocoder } = geocoderAt(1, 2000); // room for 2 waiting
    const first = geocoder.reverse(A, 10, 0);
    const waiting = [11, 12].map((lat) => track(geocoder.reverse(A, lat, 0)));
    const refused = await Promise.all([13, 14, 15, 16, 17].map((lat) => geocoder.reverse(A, lat, 0)));
    expect(refused.every((r) => r.reason === 'failed')).toBe(true);
    expect(await first).toEqual({ address: 'Addr 10,0' });
    expect(geocoder.queued(A)).toBe(2);

    clock.advance(1000); // lat 11 goes
    await settle(geocoder);
    clock.advance(1000); // lat 12 times out before its turn and is dropped
    await settle(geocoder);
    expect(waiting.map((w) => w.result)).toEqual([{ address: 'Addr 11,0' }, { address: null, reason: 'failed' }]);
    expect(geocoder.queued()).toBe(0);

    // Five refusals and one timeout booked nothing: another enterprise is served without waiting.
    const next = track(geocoder.reverse(B, 20, 0));
    await settle(geocoder);
    expect(next.result).toEqual({ address: 'Addr 20,0' });
    expect(seen).toEqual([10, 11, 20]);
    expect(geocoder.requests).toBe(3);
  });

  it('answers from the cache at once, for any enterprise, while the queue is full', async () => {
    const { geocoder } = geocoderAt(1, 3000); // room for 3 waiting
    expect(await geocoder.reverse(A, 10, 0)).toEqual({ address: 'Addr 10,0' });
    for (const lat of [11, 12, 13, 14]) void geocoder.reverse(A, lat, 0);
    expect(geocoder.queued()).toBe(3);
    const cachedA = track(geocoder.reverse(A, 10.00001, 0));
    const cachedB = track(geocoder.reverse(B, 10, 0));
    await settle(geocoder); // promise callbacks only: the clock has not moved
    expect(cachedA.result).toEqual({ address: 'Addr 10,0' });
    expect(cachedB.result).toEqual({ address: 'Addr 10,0' });
    expect(seen).toEqual([10]);
  });

  it('holds at most rate x timeout lookups; an enterprise over its share gives way, the others keep theirs', async () => {
    const { clock, geocoder } = geocoderAt(1, 6500); // room for 6 waiting
    void geocoder.reverse(A, 1, 0); // goes at once
    const a = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((lat) => track(geocoder.reverse(A, lat, 0)));
    await settle(geocoder);
    expect(geocoder.queued(A)).toBe(6); // alone, A may fill the queue
    expect(a.map((x) => x.result?.reason)).toEqual([...Array(6).fill(undefined), ...Array(4).fill('failed')]);

    const b = [21, 22, 23].map((lat) => track(geocoder.reverse(B, lat, 0)));
    await settle(geocoder);
    // B took three places from A's newest; the total stays 6.
    expect([geocoder.queued(A), geocoder.queued(B), geocoder.queued()]).toEqual([3, 3, 6]);
    expect(a.slice(3, 6).map((x) => x.result?.reason)).toEqual(['failed', 'failed', 'failed']);
    expect(b.every((x) => x.result === undefined)).toBe(true);

    const c = track(geocoder.reverse(C, 31, 0)); // takes A's newest (A is first of the longest)
    const b4 = track(geocoder.reverse(B, 24, 0)); // B already holds more than A: refused
    await settle(geocoder);
    expect([geocoder.queued(A), geocoder.queued(B), geocoder.queued(C), geocoder.queued()]).toEqual([2, 3, 1, 6]);
    expect(a[2]?.result?.reason).toBe('failed');
    expect(b4.result).toEqual({ address: null, reason: 'failed' });

    for (let step = 0; step < 6; step++) {
      clock.advance(1000);
      await settle(geocoder);
    }
    // Everyone who kept a place was served within the timeout, round robin.
    expect(seen).toEqual([1, 2, 21, 31, 3, 22, 23]);
    expect([a[0], a[1], ...b, c].map((x) => x?.result?.address)).toEqual([
      'Addr 2,0',
      'Addr 3,0',
      'Addr 21,0',
      'Addr 22,0',
      'Addr 23,0',
      'Addr 31,0',
    ]);
  });

  it('takes one lookup of each waiting enterprise per round', async () => {
    const { clock, geocoder } = geocoderAt(1, 60_000);
    void geocoder.reverse(A, 1, 0);
    for (const lat of [2, 3, 4, 5]) void geocoder.reverse(A, lat, 0);
    for (const lat of [21, 22]) void geocoder.reverse(B, lat, 0);
    void geocoder.reverse(C, 31, 0);
    for (let step = 0; step < 7; step++) {
      clock.advance(1000);
      await settle(geocoder);
    }
    expect(seen).toEqual([1, 2, 21, 31, 3, 22, 4, 5]);
  });

  it("does not let an enterprise wait behind another's place for the same point; one request serves both", async () => {
    const { clock, geocoder } = geocoderAt(1, 10_000);
    void geocoder.reverse(A, 1, 0);
    for (const lat of [2, 3, 4]) void geocoder.reverse(A, lat, 0);
    const b = track(geocoder.reverse(B, 4, 0)); // A's last place, but B queues on its own
    expect(geocoder.queued(B)).toBe(1);
    clock.advance(1000); // A's 2
    await settle(geocoder);
    clock.advance(1000); // B's turn: the point A also asked for
    await settle(geocoder);
    expect(b.result).toEqual({ address: 'Addr 4,0' });
    clock.advance(2000);
    await settle(geocoder);
    expect(seen).toEqual([1, 2, 4, 3]);
  });
});
