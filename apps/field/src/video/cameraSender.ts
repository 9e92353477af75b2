import { VideoCodec, VideoLimits, type VideoCodecName } from '@intercom/contract';
import { encodeVideoUp } from '@intercom/terminal-client';
import { Listeners } from '../shared/listeners';

/** An open camera: the current picture on demand, and its tracks to stop. */
export interface Camera {
  grab(): CanvasImageSource;
  stop(): void;
}

/** Encoded pictures come back through `onPicture`, in capture order. */
export type PictureSink = (picture: { payload: Uint8Array; key: boolean; capturedAt: number }) => void;

export interface PictureEncoder {
  encode(picture: CanvasImageSource, capturedAt: number, key: boolean): void;
  /** Pictures handed in and not yet out. */
  readonly backlog: number;
  close(): void;
}

export interface CameraParts {
  openCamera(): Promise<Camera>;
  encoder(codec: VideoCodecName, onPicture: PictureSink): PictureEncoder;
  /** Sends a binary frame; false when the socket is not open. */
  sendFrame(frame: Uint8Array): boolean;
  /** The socket still holds too much unsent: skip this picture. */
  busy(): boolean;
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export type CameraView = { state: 'off' } | { state: 'starting' | 'on'; codec: VideoCodecName } | { state: 'failed' };

/** A key frame at least this often (the protocol asks for one every 2 s; a new viewer starts at one). */
const KEY_EVERY_MS = 1000;
/** Pictures the encoder may hold before the next ones are skipped (a slow phone drops, never lags). */
const MAX_BACKLOG = 2;

/**
 * The camera between `videoStart` and `videoStop`: opens it, encodes a picture every 1/fps s and
 * sends each as a video frame. A picture is skipped while the socket or the encoder is behind; after
 * a skip the frames wait for the next key frame, since a decoder cannot use the ones after a gap.
 */
export class CameraSender {
  private current: CameraView = { state: 'off' };
  private readonly listeners = new Listeners();
  /** Bumped by every start and stop: an opening that finishes after a stop closes what it opened. */
  private generation = 0;
  private running: { camera: Camera; encoder: PictureEncoder; stopTimer: () => void } | undefined;
  private needKey = true;
  private lastKeyAt = Number.NEGATIVE_INFINITY;
  sent = 0;
  skipped = 0;

  constructor(
    private readonly parts: CameraParts,
    private readonly fps: number,
  ) {}

  subscribe = this.listeners.subscribe;

  get view(): CameraView {
    return this.current;
  }

  /** Starts sending in `codec`; a start in another codec restarts, the same one is ignored. */
  async start(codec: VideoCodecName): Promise<void> {
    if (this.current.state !== 'off' && this.current.state !== 'failed' && this.current.codec === codec) return;
    this.stop();
    const generation = this.generation;
    this.set({ state: 'starting', codec });
    let camera: Camera;
    try {
      camera = await this.parts.openCamera();
    } catch {
      if (generation === this.generation) this.set({ state: 'failed' });
      return;
    }
    if (generation !== this.generation) {
      camera.stop();
      return;
    }
    this.needKey = true;
    this.lastKeyAt = Number.NEGATIVE_INFINITY;
    const encoder = this.parts.encoder(codec, (picture) => this.encoded(codec, generation, picture));
    const stopTimer = this.parts.every(1000 / this.fps, () => this.tick(camera, encoder));
    this.running = { camera, encoder, stopTimer };
    this.set({ state: 'on', codec });
  }

  /** Stops the timer, the encoder and the camera's tracks. */
  stop(): void {
    this.generation += 1;
    const running = this.running;
    this.running = undefined;
    if (running) {
      running.stopTimer();
      running.encoder.close();
      running.camera.stop();
    }
    if (this.current.state !== 'off') this.set({ state: 'off' });
  }

  private tick(camera: Camera, encoder: PictureEncoder): void {
    if (this.parts.busy() || encoder.backlog >= MAX_BACKLOG) {
      this.skip();
      return;
    }
    const now = this.parts.now();
    const key = this.needKey || now - this.lastKeyAt >= KEY_EVERY_MS;
    if (key) this.lastKeyAt = now;
    encoder.encode(camera.grab(), now, key);
  }

  private encoded(codec: VideoCodecName, generation: number, picture: Parameters<PictureSink>[0]): void {
    if (generation !== this.generation) return;
    if ((this.needKey && !picture.key) || picture.payload.length > VideoLimits.maxFrameBytes) {
      this.skip();
      return;
    }
    const frame = encodeVideoUp({ codec: VideoCodec[codec], timestamp: picture.capturedAt, payload: picture.payload });
    if (!this.parts.sendFrame(frame)) {
      this.skip();
      return;
    }
    this.sent += 1;
    if (picture.key) this.needKey = false;
  }

  private skip(): void {
    this.skipped += 1;
    this.needKey = true;
  }

  private set(view: CameraView): void {
    this.current = view;
    this.listeners.notify();
  }
}
