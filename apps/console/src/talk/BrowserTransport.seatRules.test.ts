import { createRequire } from 'node:module';
import type { TalkAgentEvent } from '@intercom/contract';
import { expect, vi } from 'vitest';
import { commandStep, runSeatRules, type SeatDriver } from '../../../../packages/terminal-client/test/seatRules.run';
import { SEAT_AUTH_CODE } from '../../../../packages/terminal-client/test/seatRules.table';
import { BrowserTransport, type BrowserAudioEngine } from './BrowserTransport';
import type { TalkConnection } from './talkTypes';

// The Node build of `ws` stands in for the browser's WebSocket.
const WebSocket = createRequire(import.meta.url)('ws') as typeof import('ws').WebSocket;

/** `@intercom/browser-audio` without a browser: the microphone sends two packets when started. */
class FakeEngine implements BrowserAudioEngine {
  sending = false;
  async openMic(): Promise<void> {}
  startSending(onPacket: (opus: Uint8Array) => void, onLevel: (level: number) => void): void {
    this.sending = true;
    onPacket(new Uint8Array([0xf8, 1, 2]));
    onPacket(new Uint8Array([0xf8, 3, 4]));
    onLevel(0.5);
  }
  stopSending(): void {
    this.sending = false;
  }
  play(): void {}
  close(): void {}
  stats() {
    return { sent: 0, decoded: 0 };
  }
}

// The console's browser seat, driven as TalkClient drives it.
runSeatRules('BrowserTransport (console)', (peer) => {
  const engine = new FakeEngine();
  const transport = new BrowserTransport({
    url: peer.url,
    createAudio: () => Promise.resolve(engine),
    openSocket: (url) => new WebSocket(url),
    retryMs: 20,
  });
  const events: TalkAgentEvent[] = [];
  const connections: TalkConnection[] = [];
  transport.start({
    connection: (state) => connections.push(state),
    event: (event) => events.push(event),
    video: () => undefined,
  });
  const driver: SeatDriver = {
    events,
    async command(step) {
      if (step[0] !== 'login') return commandStep(transport, step);
      // TalkClient logs in once the connection says `connected`.
      await vi.waitFor(() => expect(connections.at(-1)).toBe('connected'));
      const login = { proxy: peer.origin, partyId: 1, account: 'admin', authCode: SEAT_AUTH_CODE };
      return transport.login({ ...login, dispatchNo: step[1] ?? 'D3' });
    },
    state: () => ({ ...transport.info(), mic: engine.sending }),
    close: () => {
      transport.stop();
      return Promise.resolve();
    },
  };
  return Promise.resolve(driver);
});
