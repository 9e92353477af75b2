import { VideoCodec, encodeVideoUpFrame } from '@intercom/contract';
import { TestPattern } from './testPattern.js';

export interface VideoSetup {
  /** Frames a second while someone watches. */
  fps: number;
  width: number;
  height: number;
}

export const DEFAULT_VIDEO: VideoSetup = { fps: 10, width: 320, height: 240 };

/**
 * A simulated camera: after the server's `videoStart` it sends one JPEG test picture (with the
 * capture time drawn in) every 1/fps seconds as a kind-2 frame, until `videoStop` or a disconnect.
 * A frame is skipped, not queued, while the socket is still sending earlier ones (a camera on a
 * slow link drops pictures; it does not fall behind).
 */
export class VideoPublisher {
  private timer: NodeJS.Timeout | undefined;
  private index = 0;
  private readonly pattern: TestPattern;
  sent = 0;
  skipped = 0;

  constructor(
    private readonly setup: VideoSetup,
    private readonly label: string,
    /** Sends a binary frame unless the socket is busy; false when it was skipped. */
    private readonly sendFrame: (frame: Uint8Array) => boolean,
  ) {
    this.pattern = new TestPattern(setup.width, setup.height);
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    const tick = () => {
      const now = Date.now();
      const jpegBytes = this.pattern.frame(this.index, now, this.label);
      this.index += 1;
      // The timestamp is the capture time: epoch ms modulo 2^32 (docs/terminal-protocol.md).
      if (this.sendFrame(encodeVideoUpFrame(VideoCodec.jpeg, now % 2 ** 32, jpegBytes))) this.sent += 1;
      else this.skipped += 1;
    };
    tick();
    this.timer = setInterval(tick, 1000 / this.setup.fps);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
