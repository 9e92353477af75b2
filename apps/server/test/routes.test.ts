import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PUBLIC_API_ROUTES } from '../src/auth/authPlugin.js';
import { authed, buildTestApp, call, expectFailure, expectSuccess, loginAdmin } from './helper.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

function isPublic(url: string): boolean {
  return PUBLIC_API_ROUTES.includes(url) || url === '/api/docs' || url.startsWith('/api/docs/');
}

/** A concrete URL for a route pattern: `:id` and friends become 1, a wildcard becomes `x`. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');
}

describe('route table', () => {
  it('registers the foundation routes', () => {
    const routes = t.app.routeList.map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'GET /api/UAuth/PublicKey',
      'POST /api/UAuth/Login',
      'POST /api/UAuth/Refresh',
      'GET /api/UAuth/ICP',
      'GET /api/Account/LoginInfo',
      'POST /api/Account/Logout',
      'GET /api/Account/SysConfig',
      'POST /api/Account/ModifyConfig',
      'POST /api/Account/ChangePassword',
      'GET /api/Enterprise/Statistics',
      'GET /api/SysLog/QueryData',
      'GET /api/SysLog/ExportData',
      'GET /healthz',
      'GET /readyz',
    ]) {
      expect(routes).toContain(expected);
    }
  });

  it('answers 401 with 50008 on every non-public /api route without a token', async () => {
    const guarded = t.app.routeList.filter((r) => r.url.startsWith('/api/') && !isPublic(r.url));
    // The walk must cover something real, or it proves nothing.
    expect(guarded.length).toBeGreaterThanOrEqual(10);
    const failures: string[] = [];
    for (const route of guarded) {
      const res = await call(t.app, {
        method: route.method as 'GET',
        url: concrete(route.url),
        ...(route.method === 'POST' || route.method === 'PUT' ? { payload: {} } : {}),
      });
      if (res.statusCode !== 401) {
        failures.push(`${route.method} ${route.url}: HTTP ${res.statusCode}`);
        continue;
      }
      // HEAD answers carry no body; the status is what a client sees.
      if (route.method === 'HEAD') continue;
      const code = res.json<{ BaseResult?: { Code?: number } }>().BaseResult?.Code;
      if (code !== 50008) failures.push(`${route.method} ${route.url}: Code ${String(code)}`);
    }
    expect(failures).toEqual([]);
  });

  it('lets the public routes through without a token', async () => {
    expectSuccess(await call(t.app, { method: 'GET', url: '/api/UAuth/PublicKey' }));
    const icp = expectSuccess(await call(t.app, { method: 'GET', url: '/api/UAuth/ICP' }));
    expect(icp.BaseData).toEqual({ ICP: '' });
  });

  it('serves the configured ICP text', async () => {
    const other = await buildTestApp({ env: { ICP_TEXT: '京ICP备00000000号' } });
    try {
      const icp = expectSuccess(await call(other.app, { method: 'GET', url: '/api/UAuth/ICP' }));
      expect(icp.BaseData).toEqual({ ICP: '京ICP备00000000号' });
    } finally {
      await other.close();
    }
  });
});

describe('health and docs', () => {
  it('answers /healthz and /readyz with 200', async () => {
    const health = await call(t.app, { method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await call(t.app, { method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers /readyz with 503 when the database is gone', async () => {
    const broken = await buildTestApp();
    try {
      await broken.db.destroy();
      const ready = await call(broken.app, { method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable' });
    } finally {
      await broken.close();
    }
  });

  it('publishes an OpenAPI document listing the login route', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths['/api/UAuth/Login'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/SysLog/QueryData'] ?? {})).toContain('get');
    expect(doc.paths['/healthz']).toBeUndefined();
  });

  it('serves the docs UI', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    // Served over plain HTTP, an upgrade directive would send the page's own scripts to https.
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

describe('errors', () => {
  it('answers an unknown /api path with the 404 envelope, with or without a token', async () => {
    expectFailure(await call(t.app, { method: 'GET', url: '/api/NoSuch/Thing' }), 404, 4004, 'error.not_found');
    const token = await loginAdmin(t);
    expectFailure(await authed(t.app, token).get('/api/NoSuch/Thing'), 404, 4004, 'error.not_found');
    expectFailure(await authed(t.app, token).post('/api/Account/NoSuch'), 404, 4004, 'error.not_found');
  });

  it('answers malformed JSON with a 400 envelope, not 500', async () => {
    const token = await loginAdmin(t);
    const res = await authed(t.app, token).inject({
      method: 'POST',
      url: '/api/Account/ModifyConfig',
      headers: { 'content-type': 'application/json' },
      payload: '{"scCode": "DefaultMap", "scValue": ',
    });
    expectFailure(res, 400, 4000);
    const publicRoute = await call(t.app, {
      method: 'POST',
      url: '/api/UAuth/Login',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expectFailure(publicRoute, 400, 4000);
  });

  it('answers an unsupported content type and an oversized body with a 4xx envelope', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/UAuth/Login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json<{ BaseResult: { Code: number } }>().BaseResult.Code).toBe(4000);
    const big = await call(t.app, {
      method: 'POST',
      url: '/api/UAuth/Login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ appId: 'console', appSecret: 'x', data: 'y'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBeGreaterThanOrEqual(400);
    expect(big.statusCode).toBeLessThan(500);
    expect(big.json<{ BaseResult: { Code: number } }>().BaseResult.Code).toBe(4000);
  });

  it('answers an internal failure with 5000 and a request id, never the SQL or a stack', async () => {
    const broken = await buildTestApp();
    try {
      const token = await loginAdmin(broken);
      await sql`drop table ${sql.table('sys_log')}`.execute(broken.db);
      const res = await authed(broken.app, token).get('/api/SysLog/QueryData');
      const body = expectFailure(res, 500, 5000, 'error.internal');
      expect(body.BaseResult.RequestId).toBe(res.headers['x-request-id']);
      expect(body.BaseResult.RequestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body).not.toMatch(/sys_log|select |no such table|does not exist|SqliteError|DatabaseError/i);
    } finally {
      await broken.close();
    }
  });

  it('sends a request id on every answer', async () => {
    const res = await call(t.app, { method: 'GET', url: '/healthz' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
