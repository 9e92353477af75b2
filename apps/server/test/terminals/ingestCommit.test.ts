import { describe, expect, it } from 'vitest';
import { sleep } from '../hub/hubTestApp.js';
import { createTerminalUser, fix, loggedIn, useTerminalApp } from './terminalTestApp.js';

// An ack means stored (DESIGN.md section 6), also while the database refuses writes. Its own app: the
// socket must outlive the history writer's one-second retry with no heartbeat, so this file keeps
// the ordinary heartbeat timeout (ingest.test.ts runs at 600 ms, and kept this socket up by sending
// heartbeats every 200 ms: a test process stalled 600 ms under load lost it, CI of 7 Dec 00:44).
const t = useTerminalApp({ heartbeatTimeoutMs: 60_000 });

const history = (U_ID: number) => t.db.selectFrom('location_history').selectAll().where('U_ID', '=', U_ID).execute();

describe('positions while the database refuses writes', () => {
  it('acknowledges a fix only once its batch has committed, and not while the database refuses it', async () => {
    const { service } = t.terminals;
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const terminal = await loggedIn(t, phone);
    const writer = service.writer as unknown as { db: unknown };
    const db = writer.db;
    // The disk is full: every transaction fails until the test gives the database back.
    writer.db = { transaction: () => ({ execute: () => Promise.reject(new Error('disk full')) }) };
    const sent = fix();
    const reply = terminal.request({ type: 'position', ...sent }, 10_000);
    let replied = false;
    void reply.then(
      () => (replied = true),
      () => (replied = true),
    );
    try {
      await sleep(400);
      expect(replied).toBe(false);
      // The live map does not wait for the disk: the fix is shown while its row is still unstored.
      expect(t.live.user(t.demo.E_ID, U_ID)?.position).toMatchObject({
        time: sent.time,
        lat: sent.lat,
        lon: sent.lon,
      });
    } finally {
      writer.db = db;
    }
    // The writer retries after a second; the ack comes with the row already stored.
    expect(await reply).toMatchObject({ type: 'ack' });
    expect(await history(U_ID)).toHaveLength(1);
    terminal.close();
  });
});
