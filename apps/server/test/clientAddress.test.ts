import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { call, createAccount, createEnterprise, encryptLogin, loginPayload, postLogin, publicKeyOf } from './helper.js';
import { root } from './terminals/builtServer.js';
import { FAST_TERMINALS, startTerminalApp } from './terminals/terminalTestApp.js';
import { useTestApp } from './useTestApp.js';

// Issue 30 item 2: the client cannot choose its address. Whatever TRUST_PROXY says, a client that
// puts made-up addresses in front of X-Forwarded-For keeps its own: in the system log and in every
// per-IP limit (login, refresh, OsmAnd on both ports, the /terminal socket's logged address).

const LIMIT = 5;
/** Where the request's TCP connection comes from (the proxy, or the client itself). */
const SOCKET = '10.0.0.7';

interface Form {
  env: string | undefined;
  /** X-Forwarded-For as the proxies deliver it, `forged` being whatever the client put in front. */
  header: (forged: string, client: string) => string;
  /** The address every log and limit must use. */
  client: string;
  /** Another client behind the same proxies: its own budget. */
  other: string;
}

const FORMS: [string, Form][] = [
  [
    'unset (false): the socket, X-Forwarded-For ignored',
    { env: undefined, header: (forged) => forged, client: SOCKET, other: SOCKET },
  ],
  [
    'true: one hop, the last entry',
    {
      env: 'true',
      header: (forged, client) => `${forged}, ${client}`,
      client: '198.51.100.4',
      other: '198.51.100.5',
    },
  ],
  [
    '2: two hops, the second entry from the right',
    {
      env: '2',
      header: (forged, client) => `${forged}, ${client}, 10.0.0.1`,
      client: '198.51.100.4',
      other: '198.51.100.5',
    },
  ],
  [
    'a CIDR list: the rightmost address outside it',
    {
      env: '10.0.0.0/8, 192.168.5.1',
      header: (forged, client) => `${forged}, ${client}, 192.168.5.1, 10.9.9.9`,
      client: '198.51.100.4',
      other: '198.51.100.5',
    },
  ],
];

/** `n` made-up addresses a client could put in front, one per request. */
const forgeries = (n: number) => Array.from({ length: n }, (_, i) => `203.0.113.${i + 1}`);

describe.each(FORMS)('TRUST_PROXY %s', (_name, form) => {
  const t = useTestApp({
    env: { LOGIN_IP_LIMIT_PER_MINUTE: String(LIMIT), ...(form.env !== undefined ? { TRUST_PROXY: form.env } : {}) },
  });
  let spki: string;
  beforeAll(async () => {
    spki = await publicKeyOf(t.app);
  });

  const attempt = (input: { username: string; password: string; code: string }, forwardedFor: string) =>
    postLogin(
      t.app,
      { appId: 'console', companyId: input.code, ...encryptLogin(spki, loginPayload(input)) },
      {
        ip: SOCKET,
        forwardedFor,
      },
    );
  const loggedIps = async (E_ID: number, action: string) =>
    (await t.db.selectFrom('sys_log').select('IP').where('E_ID', '=', E_ID).where('Action', '=', action).execute()).map(
      (row) => row.IP,
    );

  it('logs the client, counts its logins under one address, and lets another client in', async () => {
    const { E_ID, code } = await createEnterprise(t.db);
    const statuses: number[] = [];
    // Each attempt names another unknown account, so only the per-IP limit can refuse it.
    for (const [i, forged] of forgeries(12).entries()) {
      const res = await attempt(
        { username: `nobody${i}`, password: 'Wrong#pass1', code },
        form.header(forged, form.client),
      );
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(403), ...Array<number>(12 - LIMIT).fill(429)]);
    expect(await loggedIps(E_ID, 'login_failed')).toEqual(Array<string>(LIMIT).fill(form.client));

    if (form.other === form.client) return;
    const account = await createAccount(t.db, { E_ID });
    const res = await attempt({ ...account, code }, form.header('203.0.113.99', form.other));
    expect(res.statusCode, res.body).toBe(200);
    expect(await loggedIps(E_ID, 'login')).toEqual([form.other]);
  });

  it('counts refreshes under the same address', async () => {
    const refresh = (forwardedFor: string) =>
      call(t.app, {
        method: 'POST',
        url: '/api/UAuth/Refresh',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
        payload: 'refresh_token=not-a-token',
        remoteAddress: SOCKET,
      });
    const statuses: number[] = [];
    for (const forged of forgeries(LIMIT * 4 + 1))
      statuses.push((await refresh(form.header(forged, form.client))).statusCode);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('OsmAnd and /terminal with TRUST_PROXY=true', () => {
  const t = useTestApp(() =>
    startTerminalApp({ ...FAST_TERMINALS, osmandPerMinute: 3 }, undefined, { TRUST_PROXY: 'true' }),
  );
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Status of each report, one made-up address in front of the client's each time. */
  const reports = async (send: (forwardedFor: string) => Promise<number>, client: string, n: number) => {
    const statuses: number[] = [];
    for (const forged of forgeries(n)) statuses.push(await send(`${forged}, ${client}`));
    return statuses;
  };

  it('limits /api/osmand per client', async () => {
    const send = async (forwardedFor: string) =>
      (
        await call(t.app, {
          method: 'GET',
          url: '/api/osmand?id=13800000000&lat=1&lon=1',
          headers: { 'x-forwarded-for': forwardedFor },
          remoteAddress: SOCKET,
        })
      ).statusCode;
    const statuses = await reports(send, '198.51.100.4', 5);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(await send('203.0.113.50, 198.51.100.5')).not.toBe(429);
  });

  it('limits the OSMAND_PORT listener per client (the same resolution)', async () => {
    const address = await t.terminals.listenOsmand(0, '127.0.0.1');
    const send = async (forwardedFor: string) =>
      (await fetch(`${address}/?id=13800000000&lat=1&lon=1`, { headers: { 'x-forwarded-for': forwardedFor } })).status;
    const statuses = await reports(send, '198.51.100.6', 5);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(await send('203.0.113.50, 198.51.100.7')).not.toBe(429);
  });

  it('hands the /terminal gateway the client, not the made-up address', async () => {
    const accept = vi.spyOn(t.terminals.gateway, 'accept');
    const socket = new WebSocket(t.terminalUrl, { headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.8' } });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.close();
    expect(accept.mock.calls.map(([, ip]) => ip)).toEqual(['198.51.100.8']);
  });
});

describe('deploy/nginx.conf.example', () => {
  // Without comments, which may name what is not done.
  const conf = fs.readFileSync(path.join(root, 'deploy/nginx.conf.example'), 'utf8').replace(/#.*$/gm, '');

  it('sets X-Forwarded-For to the connecting address instead of appending to what the client sent', () => {
    expect(conf).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(conf).not.toContain('$proxy_add_x_forwarded_for');
  });

  it('sets no header in a location, which would drop the server-level X-Forwarded-For there', () => {
    const locations = [...conf.matchAll(/^\s*location\b[^{]*\{([^}]*)\}/gm)].map((match) => match[1] ?? '');
    expect(locations.length).toBeGreaterThanOrEqual(4);
    for (const body of locations) expect(body).not.toContain('proxy_set_header');
  });
});
