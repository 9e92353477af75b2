import type { AuthCode, TalkSeat } from '@intercom/contract';
import { CALL_ID_BASE } from '@intercom/contract';
import { describe, expect, test, vi } from 'vitest';
import { TalkClient } from './TalkClient';
import { TalkError, type TalkTransport, type TalkVideoFrame, type TransportSink } from './talkTypes';

const SEAT: TalkSeat = { dispatchNo: 'D3', A_ID: 3, E_ID: 1, name: 'Admin', priority: 7 };
const ACCOUNT = { proxy: 'http://localhost:8080', partyId: 1, name: 'admin', dispatchNo: 'D3' };

function setup(options: { login?: () => Promise<TalkSeat>; authCode?: () => Promise<AuthCode> } = {}) {
  let sink: TransportSink | null = null;
  // The mocks the tests look at, apart from the transport that holds them (no unbound methods).
  const calls = {
    login: vi.fn<TalkTransport['login']>(options.login ?? (() => Promise.resolve(SEAT))),
    monitor: vi.fn<TalkTransport['monitor']>(() => Promise.resolve()),
    groupCall: vi.fn<TalkTransport['groupCall']>(() => Promise.resolve()),
  };
  const transport = {
    mode: 'agent',
    start: (next: TransportSink) => (sink = next),
    stop: () => undefined,
    ...calls,
    applyMic: vi.fn(() => Promise.resolve()),
    logout: vi.fn(() => Promise.resolve()),
  } as unknown as TalkTransport;
  const fetchAuthCode = vi.fn(
    options.authCode ??
      (() => Promise.resolve({ authCode: 'c'.repeat(32), expiresAt: Date.now() + 60_000, dispatchNo: 'D3' })),
  );
  const client = new TalkClient({
    createAgent: () => transport,
    createBrowser: () => transport,
    fetchAuthCode,
    browserProblem: () => Promise.resolve(null),
    secureContext: true,
  });
  const statuses: string[] = [];
  client.onStatus((status) => statuses.push(status.key));
  client.setAccount(ACCOUNT);
  client.start();
  return { client, transport: calls, fetchAuthCode, statuses, sink: () => sink! };
}

type Setup = ReturnType<typeof setup>;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('TalkClient', () => {
  test('the login payload carries the account and a fresh AuthCode; a transport that comes back logs in again', async () => {
    const { client, transport, fetchAuthCode, statuses, sink } = setup();
    sink().connection('connected');
    await client.login();
    expect(transport.login).toHaveBeenCalledWith({
      proxy: ACCOUNT.proxy,
      partyId: 1,
      account: 'admin',
      authCode: 'c'.repeat(32),
      dispatchNo: 'D3',
    });
    await client.monitor([5]);
    expect(client.getState()).toMatchObject({ seat: SEAT, agent: 'present', monitored: [5] });

    sink().connection('disconnected');
    expect(client.getState().seat).toBeNull();
    sink().connection('connected');
    await vi.waitFor(() => expect(client.getState().seat).toEqual(SEAT));
    expect(fetchAuthCode).toHaveBeenCalledTimes(2);
    // The channels listened to before are listened to again.
    await vi.waitFor(() => expect(transport.monitor).toHaveBeenCalledTimes(2));
    expect(statuses).toEqual([
      'talk_connected',
      'login_success',
      'talk_disconnected',
      'talk_connected',
      'login_success',
    ]);
    client.stop();
  });

  test('after the agent restarts, the new seat joins the current channel again', async () => {
    const { client, transport, sink } = setup();
    sink().connection('connected');
    await client.login();
    await client.groupCall(42, 'North');
    sink().connection('disconnected');
    sink().connection('connected');
    await vi.waitFor(() => expect(transport.groupCall).toHaveBeenCalledTimes(2));
    expect(transport.groupCall).toHaveBeenLastCalledWith(42);
    await vi.waitFor(() => expect(client.getState().floors.has(42)).toBe(true));
    expect(client.getState()).toMatchObject({ seat: SEAT, current: 42 });
    client.stop();
  });

  test('the platform lost and back (agent events): the console logs the seat in again with a new code', async () => {
    const { client, transport, fetchAuthCode, sink } = setup();
    sink().connection('connected');
    await client.login();
    await client.groupCall(42);
    // The agent says `server connected` on every Login: that alone is no reason to log in again.
    sink().event({ event: 'server', state: 'connected' });
    await settle();
    expect(transport.login).toHaveBeenCalledTimes(1);
    sink().event({ event: 'loggedOut', reason: 'server_lost' });
    sink().event({ event: 'server', state: 'disconnected' });
    expect(client.getState()).toMatchObject({ seat: null, current: 42 });
    sink().event({ event: 'server', state: 'connected' });
    await vi.waitFor(() => expect(client.getState().seat).toEqual(SEAT));
    expect(fetchAuthCode).toHaveBeenCalledTimes(2);
    expect(transport.login).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(transport.groupCall).toHaveBeenCalledTimes(2));
    // A LogOut is on purpose: nothing logs in again.
    sink().event({ event: 'loggedOut', reason: 'logout' });
    sink().event({ event: 'server', state: 'connected' });
    await settle();
    expect(transport.login).toHaveBeenCalledTimes(2);
    client.stop();
  });

  test('a channel the agent could not join is not shown as listened to, and the refusal is said', async () => {
    const { client, transport, statuses, sink } = setup();
    sink().connection('connected');
    await client.login();
    transport.monitor.mockResolvedValueOnce([{ cid: 6, code: 'not_member' }]);
    await client.monitor([5, 6]);
    expect(client.getState().monitored).toEqual([5]);
    expect([...client.getState().floors.keys()]).toEqual([5]);
    expect(statuses.at(-1)).toBe('command_failed');
    client.stop();
  });

  test('each way a login fails says which chat-account text applies', async () => {
    const failedCode = setup({ authCode: () => Promise.reject(new Error('network')) });
    failedCode.sink().connection('connected');
    await expect(failedCode.client.login()).rejects.toThrow();
    expect(failedCode.statuses.at(-1)).toBe('chat_account_failed');

    const noAccount = setup();
    noAccount.client.setAccount(null);
    noAccount.sink().connection('connected');
    await expect(noAccount.client.login()).rejects.toThrow();
    expect(noAccount.statuses.at(-1)).toBe('no_chat_account');

    const mismatch = setup({ login: () => Promise.reject(new TalkError('account_mismatch')) });
    mismatch.sink().connection('connected');
    await expect(mismatch.client.login()).rejects.toThrow();
    expect(mismatch.statuses.at(-1)).toBe('no_talk_account');

    const expired = setup({ login: () => Promise.reject(new TalkError('bad_auth_code')) });
    expired.sink().connection('connected');
    await expect(expired.client.login()).rejects.toThrow();
    expect(expired.statuses.at(-1)).toBe('chat_account_failed');
  });

  test('a seat taken over elsewhere is "account shortage"; monitor and update news have their texts', async () => {
    const { client, statuses, sink } = setup();
    sink().connection('connected');
    await client.login();
    sink().event({ event: 'loggedOut', reason: 'replaced' });
    sink().monitorState?.('disconnected');
    sink().update?.('updating');
    sink().update?.('success');
    sink().update?.('failed');
    await settle();
    expect(client.getState().seat).toBeNull();
    expect(statuses.slice(2)).toEqual([
      'account_shortage',
      'monitor_disconnected',
      'service_updating',
      'update_success',
      'update_failed',
    ]);
  });

  test('video frames reach every subscriber until it unsubscribes', () => {
    const { client, sink } = setup();
    const seen: number[] = [];
    const off = client.onVideoFrame((frame: TalkVideoFrame) => seen.push(frame.uid));
    const frame = { uid: 7, codec: 2, timestamp: 1, payload: new Uint8Array([1]) };
    sink().video(frame);
    off();
    sink().video(frame);
    expect(seen).toEqual([7]);
  });

  test('the video list follows online/offline and goes with the seat (a new login lists again)', async () => {
    const { client, sink } = setup();
    sink().connection('connected');
    await client.login();
    const camera = (uid: number) => ({ uid, name: `Camera ${uid}`, codecs: ['jpeg'] });
    sink().event({ event: 'videoOnline', video: camera(7) });
    sink().event({ event: 'videoOnline', video: camera(8) });
    sink().event({ event: 'videoOnline', video: { ...camera(7), codecs: ['h264'] } });
    sink().event({ event: 'videoOffline', uid: 8 });
    expect(client.getState().videos).toEqual([{ ...camera(7), codecs: ['h264'] }]);
    sink().connection('disconnected');
    expect(client.getState().videos).toEqual([]);
    sink().connection('connected');
    await vi.waitFor(() => expect(client.getState().seat).toEqual(SEAT));
    sink().event({ event: 'videoOnline', video: camera(7) });
    sink().event({ event: 'loggedOut', reason: 'server_lost' });
    expect(client.getState().videos).toEqual([]);
    client.stop();
  });

  // Every way the seat goes leaves the same seat state; only a seat ended on purpose forgets its channels.
  const seatLosses: { path: string; lose: (t: Setup) => Promise<void>; keeps: boolean }[] = [
    {
      path: 'the transport disconnects',
      lose: (t) => Promise.resolve(t.sink().connection('disconnected')),
      keeps: true,
    },
    {
      path: 'the platform is lost',
      lose: (t) => Promise.resolve(t.sink().event({ event: 'loggedOut', reason: 'server_lost' })),
      keeps: true,
    },
    {
      path: 'the seat is taken over',
      lose: (t) => Promise.resolve(t.sink().event({ event: 'loggedOut', reason: 'replaced' })),
      keeps: false,
    },
    { path: 'the console logs out', lose: (t) => t.client.logout(), keeps: false },
  ];
  test.each(seatLosses)('$path: no seat, floors, calls, microphone or videos are left', async ({ lose, keeps }) => {
    const t = setup();
    t.sink().connection('connected');
    await t.client.login();
    await t.client.groupCall(42, 'North');
    await t.client.monitor([5]);
    await t.client.applyMic();
    t.sink().event({ event: 'micLevel', level: 0.5 });
    t.sink().event({ event: 'callStart', cid: CALL_ID_BASE + 1, from: 9, name: 'Nine' });
    t.sink().event({ event: 'videoOnline', video: { uid: 7, name: 'Camera 7', codecs: ['jpeg'] } });
    expect(t.client.getState()).toMatchObject({ mic: 'on', micLevel: 0.5, current: 42, monitored: [5] });
    expect(t.client.getState().calls.size).toBe(1);

    await lose(t);
    const state = t.client.getState();
    expect(state).toMatchObject({ seat: null, mic: 'off', micLevel: 0, videos: [] });
    expect(state.floors.size).toBe(0);
    expect(state.calls.size).toBe(0);
    expect({ current: state.current, monitored: state.monitored }).toEqual(
      keeps ? { current: 42, monitored: [5] } : { current: null, monitored: [] },
    );
    t.client.stop();
  });
});
