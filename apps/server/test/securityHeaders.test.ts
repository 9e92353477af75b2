import { describe, expect, it } from 'vitest';
import { call, createAccount, createEnterprise, loginRaw, type TestApp } from './helper.js';
import { useTestApp } from './useTestApp.js';

/** Issue 16: the security headers every answer carries, and client IPs behind TRUST_PROXY. */

describe('security headers over plain HTTP', () => {
  const t = useTestApp();

  it.each(['/api/UAuth/ICP', '/api/Account/LoginInfo', '/api/UserInfo/QueryData', '/healthz'])(
    '%s: CSP, nosniff, framing, no HSTS',
    async (url) => {
      const res = await call(t.app, { method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // A plain-HTTP LAN deployment must not pin browsers to HTTPS.
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    },
  );
});

/** The IP a failed login of a fresh account is logged with, sent from 10.0.0.7 with X-Forwarded-For. */
async function loggedIp(t: TestApp, forwarded: string): Promise<string> {
  const enterprise = await createEnterprise(t.db);
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID });
  await loginRaw(
    t.app,
    { username: account.username, password: 'Wrong#pass1', code: enterprise.code },
    { ip: '10.0.0.7', forwardedFor: forwarded },
  );
  const row = await t.db
    .selectFrom('sys_log')
    .select('IP')
    .where('E_ID', '=', enterprise.E_ID)
    .where('Action', '=', 'login_failed')
    .executeTakeFirstOrThrow();
  return row.IP;
}

describe('client IPs', () => {
  const direct = useTestApp();
  const proxied = useTestApp({ env: { TRUST_PROXY: 'true' } });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set: a client cannot forge its logged address', async () => {
    expect(await loggedIp(direct, '203.0.113.9')).toBe('10.0.0.7');
  });

  it('logs the client address the proxy forwards with TRUST_PROXY=true', async () => {
    expect(await loggedIp(proxied, '203.0.113.9')).toBe('203.0.113.9');
    // One hop: the entry the proxy appended, never the one the client wrote in front (issue 30).
    expect(await loggedIp(proxied, '203.0.113.66, 198.51.100.4')).toBe('198.51.100.4');
  });
});
