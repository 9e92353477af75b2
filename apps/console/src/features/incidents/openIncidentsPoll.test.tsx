import { Code } from '@intercom/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useOpenIncidents, INCIDENT_POLL_MS } from './api';
import { clearTokens, setTokens } from '../../shared/storage/tokenStore';
import { onApiEvent } from '../../shared/api/apiEvents';
import { markSessionEnded, resetSessionState } from '../../shared/api/sessionState';
import { liveHub } from '../../shared/hub/liveHub';

/** The server: counts the live map's incident polls; answers 401 "signed in elsewhere" once `replaced`. */
function fakeServer() {
  const server = { polls: 0, replaced: false };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      if (input.startsWith('/api/Incident/QueryData')) server.polls += 1;
      if (server.replaced)
        return Promise.resolve(json(401, { BaseResult: { Code: Code.SessionReplaced, Message: '' } }));
      return Promise.resolve(json(200, { BaseResult: { Code: 8888, Message: '' }, Data: [], Total: 0 }));
    }),
  );
  return server;
}

function renderLiveMapPoll() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useOpenIncidents(true), { wrapper });
}

/** Lets the timers of `ms` run, with the fetches they start. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

let stopBridge: () => void = () => undefined;
beforeEach(() => {
  vi.useFakeTimers();
  resetSessionState();
  setTokens({ accessToken: 'a1', refreshToken: 'r1', expiresIn: 1800 });
  // What ApiEventBridge does for the signed-in screens.
  stopBridge = onApiEvent((event) => {
    if (event.type === 'session') markSessionEnded();
  });
});
afterEach(() => {
  stopBridge();
  clearTokens();
  resetSessionState();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the live map stops polling incidents when the session ends', () => {
  it('polls while signed in', async () => {
    const server = fakeServer();
    renderLiveMapPoll();
    await pass(10 * INCIDENT_POLL_MS);
    expect(server.polls).toBeGreaterThanOrEqual(10);
  });

  it('sends nothing more after the account signed in elsewhere (one 401, not 40 in 2 minutes)', async () => {
    const server = fakeServer();
    renderLiveMapPoll();
    await pass(2 * INCIDENT_POLL_MS);
    server.replaced = true;
    await pass(INCIDENT_POLL_MS);
    const answered401 = server.polls;
    await pass(120_000);
    expect(server.polls).toBe(answered401);
  });

  it('sends nothing after signing out', async () => {
    const server = fakeServer();
    renderLiveMapPoll();
    await pass(2 * INCIDENT_POLL_MS);
    const before = server.polls;
    clearTokens();
    await pass(120_000);
    // At most the poll already scheduled when the tokens went; none after it.
    expect(server.polls - before).toBeLessThanOrEqual(1);
  });
});

describe('the live map reads incidents when the hub says they changed, and polls only while it is down', () => {
  const quiet = { onlineDelta: 0, alarmPushed: false };
  afterEach(() => liveHub.view.apply({ ...quiet, status: 'idle' }));

  it('does not poll while the hub is connected; an Incident push reads them again', async () => {
    const server = fakeServer();
    act(() => liveHub.view.apply({ ...quiet, status: 'connected' }));
    renderLiveMapPoll();
    await pass(10 * INCIDENT_POLL_MS);
    expect(server.polls).toBe(1);
    act(() => liveHub.view.apply({ ...quiet, incidentChanged: true }));
    await pass(0);
    expect(server.polls).toBe(2);
    // The hub drops: the safety net polls; once it is back, no more.
    act(() => liveHub.view.apply({ ...quiet, status: 'reconnecting' }));
    await pass(2 * INCIDENT_POLL_MS);
    expect(server.polls).toBeGreaterThanOrEqual(3);
    act(() => liveHub.view.apply({ ...quiet, status: 'connected' }));
    await pass(0);
    const back = server.polls;
    await pass(10 * INCIDENT_POLL_MS);
    expect(server.polls).toBe(back);
  });
});
