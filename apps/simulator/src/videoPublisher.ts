import { VideoCodec, type VideoCodecName } from '@intercom/contract';
import { encodeVideoUp } from '@intercom/terminal-client';
import { FfmpegH264Encoder, type EncodedPicture } from './ffmpegH264.js';
import { h264ClipUnits } from './h264Clip.js';
import { TestPattern } from './testPattern.js';

/** Where H.264 pictures come from: the test picture encoded live by ffmpeg, or the committed clip. */
export type H264Source = 'ffmpeg' | 'clip';

export interface VideoSetup {
  /** `jpeg`: the drawn test picture with a clock; `h264`: see `h264`. */
  codec: VideoCodecName;
  /**
   * For `h264`: `ffmpeg` encodes the drawn test picture live (libx264, zero latency; needs ffmpeg on
   * the PATH), `clip` loops the committed 320x240 clip. Absent: the clip.
   */
  h264?: H264Source;
  /** Frames a second while someone watches. */
  fps: number;
  /** Size of the drawn picture (the H.264 clip has its own). */
  width: number;
  height: number;
}

export const DEFAULT_VIDEO: VideoSetup = { codec: 'jpeg', fps: 10, width: 320, height: 240 };

/**
 * A simulated camera: after the server's `videoStart` it sends one picture every 1/fps seconds as
 * a kind-2 frame, until `videoStop` or a disconnect: a JPEG test picture with the capture time drawn
 * in, the same picture encoded live to H.264 by ffmpeg (a key frame every second), or the next
 * access unit of the H.264 clip (from its first IDR at every start, looped). Every frame carries
 * the time its picture was drawn, so a viewer's delay includes the encoder.
 * A frame is skipped, not queued, while the socket is still sending earlier ones (a camera on a
 * slow link drops pictures; it does not fall behind); after a skipped H.264 picture the next ones
 * wait for a key frame, since a decoder cannot use them.
 */
export class VideoPublisher {
  private timer: NodeJS.Timeout | undefined;
  private index = 0;
  private readonly pattern: TestPattern;
  private encoder: FfmpegH264Encoder | undefined;
  /** The live encoder failed: this camera loops the clip from now on. */
  private encoderFailed = false;
  private waitForKey = false;
  sent = 0;
  skipped = 0;

  constructor(
    private readonly setup: VideoSetup,
    private readonly label: string,
    /** Sends a binary frame unless the socket is busy; false when it was skipped. */
    private readonly sendFrame: (frame: Uint8Array) => boolean,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.pattern = new TestPattern(setup.width, setup.height);
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  /** The pictures come from ffmpeg now. */
  get live(): boolean {
    return this.encoder !== undefined;
  }

  start(): void {
    if (this.timer) return;
    this.index = 0;
    this.waitForKey = false;
    if (this.setup.codec === 'h264' && this.setup.h264 === 'ffmpeg' && !this.encoderFailed) this.startEncoder();
    const tick = () => {
      // The timestamp is the capture time: epoch ms modulo 2^32 (docs/terminal-protocol.md).
      const now = Date.now();
      if (this.encoder) {
        if (!this.encoder.encode(this.pattern.draw(this.index, now, this.label), now)) this.skipped += 1;
        this.index += 1;
        return;
      }
      if (this.send(this.next(now))) return;
      // A skipped H.264 unit would break the pictures after it: the clip restarts at its IDR.
      if (this.setup.codec === 'h264') this.index = 0;
    };
    tick();
    this.timer = setInterval(tick, 1000 / this.setup.fps);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.encoder?.close();
    this.encoder = undefined;
  }

  private startEncoder(): void {
    const { width, height, fps } = this.setup;
    const encoder = new FfmpegH264Encoder({
      width,
      height,
      fps,
      onPicture: (picture) => this.encoded(picture),
      onExit: (reason) => {
        if (this.encoder !== encoder) return;
        this.log(`${this.label}: the H.264 encoder stopped (${reason}); looping the H.264 clip instead`);
        this.encoderFailed = true;
        this.encoder = undefined;
        this.index = 0;
      },
    });
    this.encoder = encoder;
  }

  private encoded(picture: EncodedPicture): void {
    if (!this.running) return;
    if (this.waitForKey && !picture.key) {
      this.skipped += 1;
      return;
    }
    const frame = encodeVideoUp({ codec: VideoCodec.h264, timestamp: picture.capturedAt, payload: picture.annexB });
    this.waitForKey = !this.send(frame);
  }

  private send(frame: Uint8Array): boolean {
    if (this.sendFrame(frame)) {
      this.sent += 1;
      return true;
    }
    this.skipped += 1;
    return false;
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
}
