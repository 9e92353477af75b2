import type { IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createTerminalUser, loggedIn, useTerminalApp } from './terminalTestApp.js';

// A terminal's socket lives for hours among thousands: it must not keep its upgrade request (the
// request, its response, headers, logger and route context were a third of a connection's heap).
// A heartbeat timeout well past the forced collections below (the file's usual 2 s closed the
// terminal with 4004 in a loaded CI run, 7 Dec 04:12).
const t = useTerminalApp({ heartbeatTimeoutMs: 60_000 });

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects garbage until `ref` is gone, or gives up after a few rounds (the object is still held). */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let round = 0; round < 5 && ref.deref() !== undefined; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
  }
  return ref.deref() === undefined;
}

describe('a terminal connection', () => {
  it('lets its upgrade request go while the terminal stays online', async () => {
    const upgrades: WeakRef<IncomingMessage>[] = [];
    const onUpgrade = (request: IncomingMessage) => upgrades.push(new WeakRef(request));
    t.app.server.on('upgrade', onUpgrade);
    const { phone } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const terminal = await loggedIn(t, phone);
    t.app.server.off('upgrade', onUpgrade);
    try {
      expect(upgrades).toHaveLength(1);
      expect(await collected(upgrades[0] as WeakRef<IncomingMessage>)).toBe(true);
      // Still the same live connection: it answers.
      expect((await terminal.request({ type: 'heartbeat' })).type).toBe('ack');
    } finally {
      terminal.close();
    }
  });
});
