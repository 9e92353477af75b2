import type { HubConnection as ClientConnection } from '@microsoft/signalr';
import { hubCloseCode } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { authed, createAccount, login } from '../helper.js';
import { startHubPair } from './hubPair.js';
import { HttpTransportType, hubClient, tenant, type HubTestApp } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// A session ended through instance A closes its hub connections held on instance B, through the
// bus: the periodic session check is set to an hour, so it cannot be what closes them (a close that
// waited for it would fail the test on its timeout).
const s = useTestApp(() => startHubPair({ keepAliveMs: 1000, pushIntervalMs: 50, sessionCheckMs: 3_600_000 }));

/** A hub client on `t`, and why it closed. */
async function connectedTo(t: HubTestApp, token: string, transport = HttpTransportType.WebSockets) {
  const client: ClientConnection = hubClient(t, { token, transport, reconnect: [0, 100] });
  const ended = new Promise<{ error: Error | undefined }>((resolve) => client.onclose((error) => resolve({ error })));
  await client.start();
  return { client, ended };
}

/** The hub connection closed with `code`. */
async function expectClosed(hub: Awaited<ReturnType<typeof connectedTo>>, code: number) {
  const { error } = await hub.ended;
  expect(hubCloseCode(error?.message ?? '')).toBe(code);
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
    await expectClosed(ws, 1001);
    await expectClosed(lp, 1001);
  });

  it('a password change on A closes the hub on B', async () => {
    const user = await tenant(s.a);
    const hub = await connectedTo(s.b, user.token, HttpTransportType.ServerSentEvents);
    const query = new URLSearchParams({ OldPassword: user.password, NewPassword: 'Changed#2026pw' });
    const res = await authed(s.a.app, user.token).post(`/api/Account/ChangePassword?${query.toString()}`);
    expect(res.statusCode, res.body).toBe(200);
    await expectClosed(hub, 1001);
  });

  it.each([
    ['freezing the account', '/api/Account/Disable', { Disabled: 'true' }],
    ['resetting the password', '/api/Account/ResetPassword', { Password: 'Reset#2026pw' }],
  ])('an administrator %s on A closes its hub on B', async (_what, url, form) => {
    const { admin, editor, token } = await editorOf(s.a);
    const hub = await connectedTo(s.b, token);
    const res = await authed(s.a.app, admin.token).post(url, { A_ID: String(editor.A_ID), ...form });
    expect(res.statusCode, res.body).toBe(200);
    await expectClosed(hub, 1001);
  });

  it('a new login on A closes the old session’s hub on B with 50012', async () => {
    const { admin, editor, token } = await editorOf(s.a);
    const hub = await connectedTo(s.b, token);
    await login(s.a.app, { username: editor.username, password: editor.password, code: admin.code });
    await expectClosed(hub, 50012);
  });
});
