import { TALK_RETRY_MS } from '@intercom/contract';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { AgentSocket, WAKE_GAP_MS } from './AgentSocket';
import { PROBE_JITTER, PROBE_MAX_MS, PROBE_STEADY_RETRIES } from './ProbeSchedule';

/** A WebSocket to a port where nobody listens (refused a moment later), or where an agent answers. */
class FakeSocket {
  static readonly OPEN = 1;
  static agentRuns = false;
  static opened: FakeSocket[] = [];
  static attempts: number[] = [];
  readyState = 0;
  binaryType = 'blob';
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((message: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.attempts.push(Date.now());
    setTimeout(() => {
      if (FakeSocket.agentRuns) {
        this.readyState = FakeSocket.OPEN;
        FakeSocket.opened.push(this);
        this.onopen?.();
      } else this.refuse();
    }, 10);
  }
  refuse() {
    this.readyState = 3;
    this.onerror?.();
    this.onclose?.();
  }
  send() {}
  close() {
    this.readyState = 3;
  }
}

const started = Date.UTC(2026, 0, 1);
/** Seconds between the probes made so far. */
const gaps = () => FakeSocket.attempts.slice(1).map((at, i) => (at - FakeSocket.attempts[i]!) / 1000);

let wake: () => void = () => undefined;
const handlers = { open: vi.fn(), close: vi.fn(), text: vi.fn() };
function socket(random: () => number = () => 0) {
  const agentSocket = new AgentSocket(
    'ws://127.0.0.1:12002',
    handlers,
    (probe) => {
      wake = probe;
      return () => (wake = () => undefined);
    },
    random,
  );
  agentSocket.start();
  return agentSocket;
}

beforeEach(() => {
  vi.useFakeTimers({ now: started });
  vi.stubGlobal('WebSocket', FakeSocket);
  FakeSocket.agentRuns = false;
  FakeSocket.opened = [];
  FakeSocket.attempts = [];
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('AgentSocket probes an absent agent with backoff', () => {
  test('never seen: 5, 10, 20, 40 s, then once a minute (9 probes in 6 minutes where 5 s retries made 72)', async () => {
    const agent = socket();
    await vi.advanceTimersByTimeAsync(6 * 60_000);
    agent.stop();
    expect(gaps().map(Math.round)).toEqual([5, 10, 20, 40, 60, 60, 60, 60]);
    expect(FakeSocket.attempts).toHaveLength(9);
  });

  test('jitter only shortens a wait, by at most 20 %, and never past a minute', async () => {
    const agent = socket(Math.random);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    agent.stop();
    const nominal = [5, 10, 20, 40, 60, 60, 60, 60, 60, 60, 60, 60];
    gaps().forEach((gap, i) => {
      const expected = nominal[Math.min(i, nominal.length - 1)]!;
      // The 10 ms the refusal takes comes on top of each wait.
      expect(gap).toBeLessThanOrEqual(expected + 0.011);
      expect(gap).toBeGreaterThanOrEqual(expected * (1 - PROBE_JITTER));
    });
    expect(Math.max(...gaps())).toBeLessThanOrEqual(PROBE_MAX_MS / 1000 + 0.011);
  });

  test('after a connection is lost: every 5 s for a minute (SPEC.md 4), then the backoff again', async () => {
    FakeSocket.agentRuns = true;
    const agent = socket();
    await vi.advanceTimersByTimeAsync(20);
    expect(handlers.open).toHaveBeenCalled();
    FakeSocket.agentRuns = false;
    FakeSocket.attempts = [];
    FakeSocket.opened[0]!.refuse();
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    agent.stop();
    const rounded = gaps().map(Math.round);
    expect(rounded.slice(0, PROBE_STEADY_RETRIES - 1)).toEqual(
      Array(PROBE_STEADY_RETRIES - 1).fill(TALK_RETRY_MS / 1000),
    );
    expect(rounded.slice(PROBE_STEADY_RETRIES - 1, PROBE_STEADY_RETRIES + 3)).toEqual([10, 20, 40, 60]);
  });

  test('the window gaining focus probes at once (once, however often focus bounces), and the agent is found', async () => {
    const agent = socket();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    const before = FakeSocket.attempts.length;
    FakeSocket.agentRuns = true;
    wake();
    wake();
    await vi.advanceTimersByTimeAsync(20);
    expect(FakeSocket.attempts).toHaveLength(before + 1);
    expect(agent.open).toBe(true);
    wake();
    expect(FakeSocket.attempts).toHaveLength(before + 1);
    agent.stop();
  });

  test('focus right after a probe waits for the schedule (no burst of refused connections)', async () => {
    const agent = socket();
    await vi.advanceTimersByTimeAsync(WAKE_GAP_MS / 2);
    wake();
    await vi.advanceTimersByTimeAsync(20);
    expect(FakeSocket.attempts).toHaveLength(1);
    agent.stop();
    wake();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(FakeSocket.attempts).toHaveLength(1);
  });
});
