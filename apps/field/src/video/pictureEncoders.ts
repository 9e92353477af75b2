import type { VideoCodecName } from '@intercom/contract';
import type { PictureEncoder, PictureSink } from './cameraSender';
import { H264_CONFIG } from './videoCodecs';

/** JPEG quality of the fallback: a 640x360 picture of about 30-50 KB. */
const JPEG_QUALITY = 0.7;

/** The encoder of the codec the server asked for. */
export function pictureEncoder(codec: VideoCodecName, onPicture: PictureSink): PictureEncoder {
  return codec === 'h264' ? new H264PictureEncoder(onPicture) : new JpegPictureEncoder(onPicture);
}

/** Every picture a complete JPEG (every one a key frame), from the canvas the camera draws on. */
class JpegPictureEncoder implements PictureEncoder {
  backlog = 0;
  private closed = false;

  constructor(private readonly onPicture: PictureSink) {}

  encode(picture: CanvasImageSource, capturedAt: number): void {
    if (!(picture instanceof HTMLCanvasElement)) return;
    this.backlog += 1;
    picture.toBlob(
      (blob) => {
        this.backlog -= 1;
        if (!blob || this.closed) return;
        void blob.arrayBuffer().then((bytes) => {
          if (!this.closed) this.onPicture({ payload: new Uint8Array(bytes), key: true, capturedAt });
        });
      },
      'image/jpeg',
      JPEG_QUALITY,
    );
  }

  close(): void {
    this.closed = true;
  }
}

/**
 * WebCodecs H.264 in Annex B: each output chunk one access unit, key frames with their SPS and PPS.
 * The capture time rides in the frame's timestamp (microseconds) and comes back on the chunk.
 */
class H264PictureEncoder implements PictureEncoder {
  private readonly encoder: VideoEncoder;

  constructor(onPicture: PictureSink) {
    this.encoder = new VideoEncoder({
      output: (chunk) => {
        const payload = new Uint8Array(chunk.byteLength);
        chunk.copyTo(payload);
        onPicture({ payload, key: chunk.type === 'key', capturedAt: Math.round(chunk.timestamp / 1000) });
      },
      // A failed encoder sends nothing more; the indicator stays until videoStop (the viewer sees no picture).
      error: () => undefined,
    });
    this.encoder.configure(H264_CONFIG);
  }

  get backlog(): number {
    return this.encoder.encodeQueueSize;
  }

  encode(picture: CanvasImageSource, capturedAt: number, key: boolean): void {
    if (this.encoder.state !== 'configured') return;
    const frame = new VideoFrame(picture, { timestamp: capturedAt * 1000 });
    try {
      this.encoder.encode(frame, { keyFrame: key });
    } finally {
      frame.close();
    }
  }

  close(): void {
    if (this.encoder.state !== 'closed') this.encoder.close();
  }
}
