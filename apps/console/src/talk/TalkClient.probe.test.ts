import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { TalkClient, type AgentMemory } from './TalkClient';
import type { TalkTransport, TransportSink } from './talkTypes';

/**
 * Issue 51: every refused probe of 127.0.0.1:12002 is a red line in the browser's console. A
 * browser that never had the agent opens no socket at sign-in (however long the page stays); the
 * talk panel probes when it opens. One that found it before looks at once, as the seat needs it.
 */
function setup(seenBefore: boolean) {
  const sinks: TransportSink[] = [];
  const createAgent = vi.fn(
    (): TalkTransport =>
      ({
        mode: 'agent',
        start: (sink: TransportSink) => sinks.push(sink),
        stop: () => undefined,
      }) as unknown as TalkTransport,
  );
  let seen = seenBefore;
  const remember = vi.fn(() => {
    seen = true;
  });
  const memory: AgentMemory = { seen: () => seen, remember };
  const client = new TalkClient({
    createAgent,
    createBrowser: createAgent,
    fetchAuthCode: () => Promise.reject(new Error('not in these tests')),
    browserProblem: () => Promise.resolve(null),
    secureContext: true,
    agentMemory: memory,
  });
  return { client, createAgent, remember, sink: () => sinks.at(-1)! };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('when the console looks for the local talk agent', () => {
  test('a browser that never had the agent opens no socket at sign-in, however long the page stays', () => {
    const { client, createAgent } = setup(false);
    client.start();
    vi.advanceTimersByTime(30 * 60_000);
    expect(createAgent).not.toHaveBeenCalled();
    expect(client.getState()).toMatchObject({ mode: null, agent: 'unknown', connection: 'idle' });
    client.stop();
  });

  test('the talk panel probes on demand: refused, the panel offers browser talk; asked again, nothing more', () => {
    const { client, createAgent, remember, sink } = setup(false);
    client.start();
    client.probeAgent();
    expect(createAgent).toHaveBeenCalledTimes(1);
    sink().connection('disconnected');
    vi.advanceTimersByTime(1_500);
    expect(client.getState()).toMatchObject({ mode: 'agent', agent: 'absent' });
    // The panel opened again: the transport already probes on its own schedule.
    client.probeAgent();
    expect(createAgent).toHaveBeenCalledTimes(1);
    expect(remember).not.toHaveBeenCalled();
    client.stop();
  });

  test('an agent found is remembered, and looked for at once at the next sign-in', () => {
    const first = setup(false);
    first.client.start();
    first.client.probeAgent();
    first.sink().connection('connected');
    expect(first.remember).toHaveBeenCalled();
    first.client.stop();

    const next = setup(true);
    next.client.start();
    expect(next.createAgent).toHaveBeenCalledTimes(1);
    next.client.stop();
  });

  test('signed out, the panel probes nothing', () => {
    const { client, createAgent } = setup(false);
    client.probeAgent();
    client.start();
    client.stop();
    client.probeAgent();
    expect(createAgent).not.toHaveBeenCalled();
  });
});
