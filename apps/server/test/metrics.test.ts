import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, call, expectFailure, loginRaw } from './helper.js';
import { hubClient } from './hub/hubTestApp.js';
import {
  TestTerminal,
  createTerminalUser,
  fix,
  loggedIn,
  useTerminalApp,
  type TerminalTestApp,
} from './terminals/terminalTestApp.js';
import { useTempDir, useTestApp } from './useTestApp.js';

// /metrics (Prometheus): what an operator's scraper sees, and that nobody else sees anything.
const TOKEN = 'metrics-token-0123456789abcdef';

/**
 * The terminal counted online sends no heartbeat: FAST_TERMINALS' 2 s would drop it while a loaded
 * machine is still making the requests this test counts (it read 0 online in CI once).
 */
const TERMINALS = { heartbeatTimeoutMs: 60_000 };

const t = useTerminalApp(TERMINALS);
const withToken = useTerminalApp(TERMINALS, undefined, { METRICS_TOKEN: TOKEN });

const scrape = async (app: TerminalTestApp, headers: Record<string, string> = {}) => {
  const res = await fetch(`${app.origin}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** The value of one series (name with its labels as printed), or undefined. */
const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('/metrics', () => {
  it('counts requests per route, hub connections, terminals online, fixes stored and login failures', async () => {
    const { phone } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const terminal = await loggedIn(t, phone);
    const base = Date.now() - 5000;
    for (let i = 0; i < 5; i++)
      expect((await terminal.request({ type: 'position', ...fix(base + i) })).type).toBe('ack');
    const intruder = await TestTerminal.connect(t);
    expect((await intruder.login(phone, 'Wrong#pass9')).code).toBe('bad_credentials');
    const refused = await loginRaw(t.app, { username: 'admin', password: `${ADMIN_PASSWORD}x`, code: 'DEMO' });
    expectFailure(refused, 403, 4003, 'login.wrong_credentials');
    const hub = hubClient(t, { token: t.adminToken });
    await hub.start();
    await fetch(`${t.origin}/api/UAuth/PublicKey?probe=1`);
    await fetch(`${t.origin}/api/NoSuch/Thing/42`);

    const { status, type, text } = await scrape(t);
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(value(text, 'intercom_fixes_ingested_total')).toBe(5);
    expect(value(text, 'intercom_history_commit_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'intercom_history_queue_rows')).toBe(0);
    expect(value(text, 'intercom_terminals_online')).toBe(1);
    expect(value(text, 'intercom_hub_connections')).toBe(1);
    expect(value(text, 'intercom_hub_pending_chars')).toBeGreaterThanOrEqual(0);
    expect(value(text, 'intercom_login_failures_total{kind="terminal",reason="bad_credentials"}')).toBe(1);
    expect(value(text, 'intercom_login_failures_total{kind="console",reason="wrong_password"}')).toBe(1);
    // Per route pattern, never per URL: no query string, no ids in the labels.
    expect(text).toMatch(
      /intercom_http_request_duration_seconds_count\{method="GET",route="\/api\/UAuth\/PublicKey",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /intercom_http_request_duration_seconds_bucket\{le="0.005",method="POST",route="\/FuncService\/negotiate"/,
    );
    expect(text).toContain(
      'intercom_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1',
    );
    expect(text).not.toMatch(/probe|NoSuch/);
    expect(value(text, 'intercom_process_resident_memory_bytes')).toBeGreaterThan(0);
    await hub.stop();
    terminal.close();
    intruder.close();
  });

  it('answers nobody but loopback callers without a proxy when no token is set', async () => {
    // Through a proxy on this machine (the header it adds) or from another address: refused, no figures.
    const proxied: Record<string, string>[] = [{ 'X-Forwarded-For': '203.0.113.9' }, { Forwarded: 'for=203.0.113.9' }];
    for (const headers of proxied) {
      const res = await scrape(t, headers);
      expect(res.status).toBe(403);
      expect(res.text).not.toContain('intercom_');
      expect(JSON.parse(res.text)).toMatchObject({ BaseResult: { Code: 4003 } });
    }
    const remote = await call(t.app, { method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(403);
    expect(remote.body).not.toContain('intercom_');
  });

  it('with METRICS_TOKEN wants that bearer token, from loopback too', async () => {
    expect((await scrape(withToken)).status).toBe(403);
    expect((await scrape(withToken, { Authorization: 'Bearer wrong-token-0123456789abcd' })).status).toBe(403);
    expect((await scrape(withToken, { Authorization: TOKEN })).status).toBe(403);
    const ok = await scrape(withToken, { Authorization: `Bearer ${TOKEN}`, 'X-Forwarded-For': '203.0.113.9' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('intercom_fixes_ingested_total 0');
  });

  it('refuses a METRICS_TOKEN too short to be a secret at start', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });
});

describe('/metrics route labels of the console build', () => {
  const root = useTempDir('intercom-metrics-console-');
  const app = useTestApp(() => {
    const consoleDir = path.join(root, 'dist');
    fs.mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(consoleDir, 'assets', 'index-3f9a1c.js'), 'console.log(1)');
    fs.writeFileSync(path.join(consoleDir, 'assets', 'map-8b2d07.css'), 'body{}');
    return buildTestApp({ consoleDir });
  });

  it('gives every static file one route series, so hashed assets add no series at a deploy', async () => {
    for (const url of ['/assets/index-3f9a1c.js', '/assets/map-8b2d07.css']) {
      expect((await call(app.app, { method: 'GET', url })).statusCode).toBe(200);
    }
    const text = (await call(app.app, { method: 'GET', url: '/metrics' })).body;
    const counts = text.split('\n').filter((l) => l.startsWith('intercom_http_request_duration_seconds_count{'));
    expect(counts.filter((l) => l.includes('/assets/'))).toEqual([]);
    expect(counts).toContain(
      'intercom_http_request_duration_seconds_count{method="GET",route="static",status="200"} 2',
    );
  });
});
