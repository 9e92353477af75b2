import { encodeAudioUp } from '@intercom/terminal-client';
import { Terminal } from './terminal.js';

/** A terminal that keeps what is pushed to it, and its audio frames (kind 1), with the time each arrived. */
export class RawTerminal extends Terminal {
  readonly pushes: Array<Record<string, unknown> & { at: number }> = [];
  readonly audio: Array<{ frame: Buffer; at: number }> = [];

  protected override onBinary(frame: Buffer): void {
    this.audio.push({ frame, at: Date.now() });
  }

  protected override onPush(message: Record<string, unknown>): void {
    this.pushes.push({ ...message, at: Date.now() });
  }

  /** Sends Opus packets as kind-1 frames, one every 20 ms (a talking terminal). */
  async speak(cid: number, packets: readonly Buffer[]): Promise<void> {
    const started = Date.now();
    for (const [index, packet] of packets.entries()) {
      this.socket.send(encodeAudioUp({ cid, seq: index, opus: packet }));
      const wait = started + (index + 1) * 20 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The first push matching `test` that arrived at or after `since`. */
  async push(test: (message: Record<string, unknown>) => boolean, since = 0, timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.pushes.find((message) => message.at >= since && test(message));
      if (found) return found;
      if (Date.now() > until) throw new Error(`no such push within ${timeoutMs} ms: ${JSON.stringify(this.pushes)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
