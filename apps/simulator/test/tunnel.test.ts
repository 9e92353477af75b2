import { TerminalLimits } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { SimDevice } from '../src/device.js';
import { FixBacklog } from '../src/fixBacklog.js';
import { seededRandom } from '../src/movement.js';
import { parseOptions } from '../src/options.js';
import { until } from '../../server/test/hub/hubTestApp.js';
import { CENTRE, simTerminal, useSimServer } from './fleetFixtures.js';

// A terminal driving through a tunnel keeps its fixes and sends them as `positions` batches when back.
const fixAt = (time: number) => ({ lat: 22.54, lon: 114.05, time });

describe('the backlog of fixes', () => {
  it('is in the tunnel only during its seconds of every cycle', () => {
    const backlog = new FixBacklog({ seconds: 2, everySeconds: 8, offsetMs: 1000 }, 0);
    const at = [0, 999, 1000, 2999, 3000, 8999, 9000, 10_999, 11_000];
    expect(at.filter((time) => backlog.inTunnel(time))).toEqual([1000, 2999, 9000, 10_999]);
    expect(new FixBacklog(undefined, 0).inTunnel(5)).toBe(false);
  });

  it('sends batches of at most 100 fixes oldest first, and keeps a refused batch for the next try', async () => {
    const backlog = new FixBacklog(undefined, 0);
    for (let i = 0; i < 250; i += 1) backlog.keep(fixAt(1_000_000_000_000 + i));
    const sent: number[][] = [];
    let refuse = 2;
    const send = (fixes: { time: number }[]) => {
      if (sent.length === refuse) return Promise.resolve(false);
      sent.push(fixes.map((f) => f.time - 1_000_000_000_000));
      return Promise.resolve(true);
    };
    expect(await backlog.send(send)).toBe(200);
    expect(sent.map((b) => b.length)).toEqual([TerminalLimits.fixesPerBatch, TerminalLimits.fixesPerBatch]);
    expect(backlog.size).toBe(50);
    refuse = -1;
    expect(await backlog.send(send)).toBe(50);
    expect(sent.flat()).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(backlog.size).toBe(0);
  });

  it('reads --tunnel, off by default, and refuses bad values', () => {
    expect(parseOptions([], {}).tunnelSeconds).toBe(0);
    expect(parseOptions(['--tunnel', '30'], {}).tunnelSeconds).toBe(30);
    expect(() => parseOptions(['--tunnel', '-1'], {})).toThrow(/--tunnel/);
    expect(() => parseOptions(['--tunnel', 'long'], {})).toThrow(/--tunnel/);
  });
});

describe('a terminal in a tunnel, against a server', () => {
  const t = useSimServer();

  it('reports nothing in the tunnel, then its stored fixes arrive in history with one ack a batch', async () => {
    const { U_ID, stats, terminal } = await simTerminal(t, {
      device: new SimDevice(CENTRE, 1, seededRandom(5), 0),
      interval: 0.1,
      tunnel: { seconds: 1.5, everySeconds: 600, offsetMs: 0 },
    });
    const history = () =>
      t.db.selectFrom('location_history').select(['H_Time']).where('U_ID', '=', U_ID).orderBy('H_Time').execute();
    terminal.start();
    await until(() => stats.fixes >= 5, 'fixes kept in the tunnel', 10_000);
    // In the tunnel: fixes are kept on the terminal, none reach the server.
    await t.terminals.service.writer.flush();
    expect(await history()).toHaveLength(0);
    expect(t.live.user(t.demo.E_ID, U_ID)?.position ?? null).toBeNull();
    await until(() => stats.batches >= 1, 'the backlog sent as positions', 10_000);
    const kept = stats.acked;
    await terminal.stop();
    await t.terminals.service.writer.flush();
    const rows = await history();
    expect(kept).toBeGreaterThanOrEqual(5);
    expect(rows.length).toBeGreaterThanOrEqual(kept);
    expect(rows.length).toBe(stats.acked);
    expect(stats.errors).toBe(0);
    expect(stats.line()).toMatch(/\(\d+ backlog batches\)/);
  });
});
