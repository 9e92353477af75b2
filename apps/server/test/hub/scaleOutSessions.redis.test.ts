import type { HubConnection as ClientConnection } from '@microsoft/signalr';
import { hubCloseCode } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { authed, createAccount, login } from '../helper.js';
import { startHubPair } from './hubPair.js';
import { HttpTransportType, hubClient, tenant, type HubTestApp } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// A session ended through instance A closes its hub connections held on instance B at once,
// through the bus: the periodic session check is set to a minute, so it cannot be what closes them.
const s = useTestApp(() => startHubPair({ keepAliveMs: 1000, pushIntervalMs: 50, sessionCheckMs: 60_000 }));

/** A hub client on `t`, and when and why it closed. */
async function connectedTo(t: HubTestApp, token: string, transport = HttpTransportType.WebSockets) {
  const client: ClientConnection = hubClient(t, { token, transport, reconnect: [0, 100] });
  const ended = new Promise<{ error: Error | undefined; at: number }>((resolve) =>
    client.onclose((error) => resolve({ error, at: Date.now() })),
  );
  await client.start();
  return { client, ended };
}

/** The hub connection closed with `code` within a second of the API's answer. */
async function expectClosedSoon(hub: Awaited<ReturnType<typeof connectedTo>>, answeredAt: number, code: number) {
  const { error, at } = await hub.ended;
  expect(hubCloseCode(error?.message ?? '')).toBe(code);
  expect(at - answeredAt).toBeLessThan(1000);
}

/** An editor of a new enterprise (whose admin is `admin`), logged in through instance `t`. */
async function editorOf(t: HubTestApp) {
  const admin = await tenant(t);
  const editor = await createAccount(t.db, { E_ID: admin.E_ID, role: 'editor' });
  const tokens = await login(t.app, { username: editor.username, password: editor.password, code: admin.code });
  return { admin, editor, token: tokens.access_token };
}

describe('session ends reach hub connections on every instance', () => {
  it('logout on A closes the WebSocket and long-polling connections held on B', async () => {
    const user = await tenant(s.a);
    const ws = await connectedTo(s.b, user.token);
    const lp = await connectedTo(s.b, user.token, HttpTransportType.LongPolling);
    const res = await authed(s.a.app, user.token).post('/api/Account/Logout');
    expect(res.statusCode, res.body).toBe(200);
    const answeredAt = Date.now();
    await expectClosedSoon(ws, answeredAt, 1001);
    await expectClosedSoon(lp, answeredAt, 1001);
  });

  it('a password change on A closes the hub on B', async () => {
    const user = await tenant(s.a);
    const hub = await connectedTo(s.b, user.token, HttpTransportType.ServerSentEvents);
    const query = new URLSearchParams({ OldPassword: user.password, NewPassword: 'Changed#2026pw' });
    const res = await authed(s.a.app, user.token).post(`/api/Account/ChangePassword?${query.toString()}`);
    expect(res.statusCode, res.body).toBe(200);
    await expectClosedSoon(hub, Date.now(), 1001);
  });

  it.each([
    ['freezing the account', '/api/Account/Disable', { Disabled: 'true' }],
    ['resetting the password', '/api/Account/ResetPassword', { Password: 'Reset#2026pw' }],
  ])('an administrator %s on A closes its hub on B', async (_what, url, form) => {
    const { admin, editor, token } = await editorOf(s.a);
    const hub = await connectedTo(s.b, token);
    const res = await authed(s.a.app, admin.token).post(url, { A_ID: String(editor.A_ID), ...form });
    expect(res.statusCode, res.body).toBe(200);
    await expectClosedSoon(hub, Date.now(), 1001);
  });

  it('a new login on A closes the old session’s hub on B with 50012', async () => {
    const { admin, editor, token } = await editorOf(s.a);
    const hub = await connectedTo(s.b, token);
    await login(s.a.app, { username: editor.username, password: editor.password, code: admin.code });
    await expectClosedSoon(hub, Date.now(), 50012);
  });
});
