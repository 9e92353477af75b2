import type { VideoCodecName } from '@intercom/contract';
import type { FieldSession } from '../session/fieldSession';
import { openRearCamera } from './browserCamera';
import { CameraSender, type CameraParts } from './cameraSender';
import { pictureEncoder } from './pictureEncoders';
import { CAMERA_PICTURE, probeCameraAbilities, videoCodecsFor } from './videoCodecs';

/** A picture is skipped while the socket holds more than this unsent (as the simulator's camera). */
const BUSY_BYTES = 256 * 1024;

/** The browser's camera, encoders and timers, sending on the session's socket. */
export function browserCameraParts(session: FieldSession): CameraParts {
  return {
    openCamera: () => openRearCamera(),
    encoder: pictureEncoder,
    sendFrame: (frame) => session.socket?.sendFrame(frame) ?? false,
    busy: () => (session.socket?.bufferedAmount ?? 0) > BUSY_BYTES,
    now: () => Date.now(),
    every: (ms, tick) => {
      const timer = setInterval(tick, ms);
      return () => clearInterval(timer);
    },
  };
}

/**
 * The field app as a video terminal: after each login announces `videoCaps` (where the browser has a
 * camera), starts the camera on `videoStart` and stops it on `videoStop`, a closed socket or sign out.
 * A user without video rights gets `not_video_member`: nothing to show, the app keeps quiet.
 */
export class FieldCamera {
  readonly sender: CameraSender;
  private codecs: Promise<VideoCodecName[]> | undefined;

  constructor(
    private readonly session: FieldSession,
    parts: CameraParts = browserCameraParts(session),
    private readonly findCodecs: () => Promise<VideoCodecName[]> = async () =>
      videoCodecsFor(await probeCameraAbilities()),
  ) {
    this.sender = new CameraSender(parts, CAMERA_PICTURE.fps);
  }

  subscribe = (listener: () => void) => this.sender.subscribe(listener);

  get view() {
    return this.sender.view;
  }

  start(): () => void {
    const offReady = this.session.onReady(() => void this.announce());
    const socket = this.session.socket;
    const offPush = socket?.on('push', (message) => {
      if (message.type === 'videoStart') void this.sender.start(message.codec);
      else if (message.type === 'videoStop') this.sender.stop();
    });
    const offClose = socket?.on('close', () => this.sender.stop());
    if (socket?.isOpen && this.session.state.kind === 'signedIn' && this.session.state.online) void this.announce();
    return () => {
      offReady();
      offPush?.();
      offClose?.();
      this.sender.stop();
    };
  }

  /** Sends `videoCaps`; every refusal (`not_video_member` above all) is quiet. */
  private async announce(): Promise<void> {
    this.codecs ??= this.findCodecs();
    const codecs = await this.codecs;
    const socket = this.session.socket;
    if (codecs.length === 0 || !socket?.isOpen) return;
    await socket.request({ type: 'videoCaps', codecs }).catch(() => undefined);
  }
}
