import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './terminals/builtServer.js';

/**
 * Issue 16: the real server (apps/server/dist/main.js) serving HTTPS with TLS_CERT and TLS_KEY, a
 * certificate made by openssl for this test.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function get(url: string, ca: Buffer): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, servername: 'localhost' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

let dir: string;
let server: ChildProcess | undefined;
let port: number;
let cert: Buffer;

beforeAll(async () => {
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-b', 'packages/contract', 'packages/media', 'apps/server'], {
    cwd: root,
    stdio: 'inherit',
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-tls-'));
  const [certFile, keyFile] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  cert = fs.readFileSync(certFile);
  port = await freePort();
  server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      ADMIN_PASSWORD: 'Admin#2026pw',
      LOG_LEVEL: 'warn',
      TLS_CERT: certFile,
      TLS_KEY: keyFile,
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let ready = false; !ready; await sleep(100)) {
    ready = await get(`https://localhost:${port}/readyz`, cert).then(
      (r) => r.status === 200,
      () => false,
    );
  }
}, 180_000);

afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('HTTPS with TLS_CERT and TLS_KEY', () => {
  it('serves the API over TLS with the given certificate, with HSTS', async () => {
    const res = await get(`https://localhost:${port}/api/UAuth/ICP`, cert);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ BaseResult: { Code: 8888 } });
    expect(String(res.headers['strict-transport-security'])).toMatch(/max-age=\d{6,}/);
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
  });

  it('refuses a client that does not trust the certificate, and speaks no plain HTTP on the port', async () => {
    await expect(get(`https://localhost:${port}/readyz`, Buffer.from(''))).rejects.toThrow(
      /self[- ]signed|certificate/i,
    );
    const plain = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(plain === 'refused' || plain === 400).toBe(true);
  });
});
