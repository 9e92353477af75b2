import { TerminalRequestError, type TerminalSocket } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { distanceMetres, type Fix } from './fix';
import { FIX_BATCH, FixQueue } from './fixQueue';
import { FixSender } from './fixSender';
import { MemoryFixStore } from './fixStore';
import { reportDue } from './reportPolicy';

const at = (time: number, lat = 22.5, lon = 114): Fix => ({ lat, lon, time });
/** About 111 m north per 0.001 degree of latitude. */
const north = (fix: Fix, metres: number, ms: number): Fix => at(fix.time + ms, fix.lat + metres / 111_195, fix.lon);

describe('reportDue', () => {
  const start = at(1_767_225_600_000);
  it('reports the first fix at once, then by the mode of the login config', () => {
    const interval = { interval: 10, distance: 50, mode: 'interval', enabled: true } as const;
    expect(reportDue(interval, undefined, start)).toBe(true);
    expect(reportDue(interval, start, north(start, 500, 5000))).toBe(false);
    expect(reportDue(interval, start, north(start, 0, 9900))).toBe(true);
    const distance = { ...interval, mode: 'distance' } as const;
    expect(reportDue(distance, start, north(start, 60, 2000))).toBe(true);
    expect(reportDue(distance, start, north(start, 10, 2000))).toBe(false);
    expect(reportDue(distance, start, north(start, 10, 10_000))).toBe(true);
    const both = { ...interval, mode: 'both' } as const;
    expect(reportDue(both, start, north(start, 10, 20_000))).toBe(false);
    expect(reportDue(both, start, north(start, 60, 2000))).toBe(false);
    expect(reportDue(both, start, north(start, 60, 10_000))).toBe(true);
    expect(reportDue({ ...interval, enabled: false }, undefined, start)).toBe(false);
    expect(distanceMetres(start, north(start, 100, 0))).toBeCloseTo(100, 0);
  });
});

describe('FixQueue', () => {
  it('keeps at most its limit, dropping the oldest first, and hands out batches oldest first', async () => {
    const queue = new FixQueue(new MemoryFixStore(), 150);
    for (let i = 0; i < 200; i += 1) await queue.add(at(1000 + i));
    expect(await queue.size()).toBe(150);
    const batch = await queue.nextBatch();
    expect(batch).toHaveLength(FIX_BATCH);
    expect(batch.map((s) => s.fix.time)).toEqual(Array.from({ length: FIX_BATCH }, (_, i) => 1050 + i));
  });
});

/** A socket that fails while `down`, else acks; it records what was sent (a unit test's stand-in). */
function fakeSocket() {
  const sent: { type: string; fixes?: Fix[] }[] = [];
  const state = { down: false };
  const socket = {
    request(message: { type: string; fixes?: Fix[] }) {
      if (state.down) return Promise.reject(new TerminalRequestError('closed', 'closed'));
      sent.push(message);
      return Promise.resolve({ type: 'ack', seq: sent.length });
    },
  } as unknown as TerminalSocket;
  return { socket, sent, state };
}

describe('FixSender', () => {
  it('queues fixes while offline and sends them as positions batches of 100, oldest first, before new ones', async () => {
    const { socket, sent, state } = fakeSocket();
    const queue = new FixQueue(new MemoryFixStore());
    let online = false;
    const sender = new FixSender(
      queue,
      () => (online ? socket : undefined),
      () => undefined,
    );
    await sender.init();
    for (let i = 0; i < 230; i += 1) await sender.send(at(i));
    expect(sent).toEqual([]);
    online = true;
    await sender.flush();
    expect(sent.map((m) => [m.type, m.fixes?.length, m.fixes?.[0]?.time])).toEqual([
      ['positions', 100, 0],
      ['positions', 100, 100],
      ['positions', 30, 200],
    ]);
    await sender.send(at(500));
    expect(sent.at(-1)).toMatchObject({ type: 'position', time: 500 });
    state.down = true;
    await sender.send(at(501));
    expect(await queue.size()).toBe(1);
  });

  it('sends a fix that came while a flush was under way, right after it', async () => {
    const { socket, sent } = fakeSocket();
    const queue = new FixQueue(new MemoryFixStore());
    const sender = new FixSender(
      queue,
      () => socket,
      () => undefined,
    );
    await queue.add(at(1));
    const flushing = sender.flush();
    await sender.send(at(2));
    await flushing;
    await expect.poll(() => queue.size()).toBe(0);
    expect(sent.flatMap((m) => m.fixes?.map((f) => f.time) ?? [])).toEqual([1, 2]);
  });
});
