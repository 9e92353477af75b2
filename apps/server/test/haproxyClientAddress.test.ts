import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { HAPROXY, startBalancer } from './haproxyBalancer.js';
import { buildTestApp, createEnterprise, encryptLogin, loginPayload } from './helper.js';
import { useTempDir, useTestApp } from './useTestApp.js';

// Issue 30 item 2, end to end: the shipped deploy/haproxy.cfg in front of an instance run as the
// file prescribes (TRUST_PROXY=true). A client that sends made-up X-Forwarded-For addresses is
// logged, and limited, under the address it connects from.
const LIMIT = 5;
if (!HAPROXY) process.stderr.write('HAProxy client address test SKIPPED: no haproxy (/usr/sbin/haproxy)\n');

const work = useTempDir('intercom-haproxy-ip-');

describe.skipIf(!HAPROXY)('client addresses behind the shipped HAProxy configuration', () => {
  /** X-Forwarded-For of every login the instance received. */
  const received: (string | undefined)[] = [];
  const t = useTestApp(async () => {
    const env = { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: String(LIMIT) };
    const app = await buildTestApp({ env, listen: true });
    // Beside Fastify's own listener: only reads what HAProxy passed on.
    app.app.server.on('request', (request: IncomingMessage) => {
      if (request.url === '/api/UAuth/Login') received.push(request.headers['x-forwarded-for'] as string | undefined);
    });
    return app;
  });
  const balancer = useTestApp(async () => {
    const port = Number(new URL(String(t.origin)).port);
    const started = await startBalancer(work, [port, port]);
    return { ...started, close: () => started.stop() };
  });

  it('logs and limits a client that forges X-Forwarded-For under the address it connects from', async () => {
    const url = balancer.url;
    const key = (await (await fetch(`${url}/api/UAuth/PublicKey`)).json()) as { BaseData: { spki: string } };
    const attempt = async (input: { username: string; password: string; code: string }, forged: string) => {
      const sealed = encryptLogin(key.BaseData.spki, loginPayload(input));
      const res = await fetch(`${url}/api/UAuth/Login`, {
        method: 'POST',
        headers: { 'x-forwarded-for': forged },
        body: new URLSearchParams({ appId: 'console', companyId: input.code, ...sealed }),
      });
      return res.status;
    };
    const { E_ID, code } = await createEnterprise(t.db);
    const admin = { username: t.demo.username, password: t.demo.password, code: t.demo.code };

    const statuses = [await attempt(admin, '203.0.113.200')];
    // Each attempt names another unknown account, so only the per-IP limit can refuse it.
    for (let i = 1; i < 12; i++)
      statuses.push(await attempt({ username: `nobody${i}`, password: 'Wrong#pass1', code }, `203.0.113.${i}`));
    expect(statuses).toEqual([200, ...Array<number>(LIMIT - 1).fill(403), ...Array<number>(12 - LIMIT).fill(429)]);

    // HAProxy replaced the header: the made-up addresses never reached the instance.
    expect(received.length).toBeGreaterThanOrEqual(LIMIT);
    expect(new Set(received)).toEqual(new Set(['127.0.0.1']));
    const logged = await t.db
      .selectFrom('sys_log')
      .select(['E_ID', 'Action', 'IP'])
      .where('Action', 'in', ['login', 'login_failed'])
      .where('E_ID', 'in', [E_ID, t.demo.E_ID])
      .execute();
    expect(logged.filter((row) => row.Action === 'login')).toEqual([
      { E_ID: t.demo.E_ID, Action: 'login', IP: '127.0.0.1' },
    ]);
    expect(logged.filter((row) => row.Action === 'login_failed').map((row) => row.IP)).toEqual(
      Array<string>(LIMIT - 1).fill('127.0.0.1'),
    );
  }, 60_000);
});
