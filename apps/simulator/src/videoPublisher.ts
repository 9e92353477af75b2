import { VideoCodec, type VideoCodecName } from '@intercom/contract';
import { encodeVideoUp } from '@intercom/terminal-client';
import { h264ClipUnits } from './h264Clip.js';
import { TestPattern } from './testPattern.js';

export interface VideoSetup {
  /** `jpeg`: the drawn test picture with a clock; `h264`: the committed clip (320x240), looped. */
  codec: VideoCodecName;
  /** Frames a second while someone watches. */
  fps: number;
  /** Size of the JPEG picture (the H.264 clip has its own). */
  width: number;
  height: number;
}

export const DEFAULT_VIDEO: VideoSetup = { codec: 'jpeg', fps: 10, width: 320, height: 240 };

/**
 * A simulated camera: after the server's `videoStart` it sends one picture every 1/fps seconds as
 * a kind-2 frame, until `videoStop` or a disconnect: a JPEG test picture with the capture time drawn
 * in, or the next access unit of the H.264 clip (from its first IDR at every start, looped).
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
    this.index = 0;
    const tick = () => {
      const now = Date.now();
      // The timestamp is the capture time: epoch ms modulo 2^32 (docs/terminal-protocol.md).
      if (this.sendFrame(this.next(now))) {
        this.sent += 1;
        return;
      }
      this.skipped += 1;
      // A skipped H.264 unit would break the pictures after it: the clip restarts at its IDR.
      if (this.setup.codec === 'h264') this.index = 0;
    };
    tick();
    this.timer = setInterval(tick, 1000 / this.setup.fps);
  }

  private next(now: number): Uint8Array {
    const index = this.index;
    this.index += 1;
    if (this.setup.codec === 'jpeg') {
      return encodeVideoUp({
        codec: VideoCodec.jpeg,
        timestamp: now,
        payload: this.pattern.frame(index, now, this.label),
      });
    }
    const units = h264ClipUnits();
    return encodeVideoUp({
      codec: VideoCodec.h264,
      timestamp: now,
      payload: units[index % units.length] as Uint8Array,
    });
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
