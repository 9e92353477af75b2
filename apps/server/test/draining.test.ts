import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { call } from './helper.js';
import { useTestApp } from './useTestApp.js';

// What a load balancer sees of an instance that has begun to shut down (main.ts sets `draining`):
// its health check fails, and a terminal's upgrade is refused with a status it retries elsewhere.
const t = useTestApp({ listen: true });

/** The HTTP status a WebSocket upgrade of /terminal gets: 101 when it is accepted. */
function upgradeStatus(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${String(t.origin).replace('http', 'ws')}/terminal`);
    socket.on('upgrade', (response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', (error) => (error.message.includes('Unexpected server response') ? undefined : reject(error)));
  });
}

describe('draining', () => {
  it('fails /readyz and refuses terminal upgrades with 503, and still answers the API', async () => {
    expect((await call(t.app, { method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(await upgradeStatus()).toBe(101);

    t.app.draining = true;
    const ready = await call(t.app, { method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'draining' });
    expect(await upgradeStatus()).toBe(503);
    expect((await call(t.app, { method: 'GET', url: '/api/UAuth/PublicKey' })).statusCode).toBe(200);
  });
});
