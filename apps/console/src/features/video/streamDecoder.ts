import { VideoCodec, isVideoKeyFrame } from '@intercom/contract';
import type { EncodedVideo } from './videoFrameSource';

/** What a tile shows under its picture. */
export interface StreamStats {
  width: number;
  height: number;
  /** Pictures drawn in the last second. */
  fps: number;
  /** Now minus the capture time of the latest picture drawn, ms (the terminal's clock against ours). */
  delayMs: number | null;
  decoded: number;
  /** Frames that could not be decoded (or arrived while the decoder was still busy with older ones). */
  dropped: number;
}

/** Capture-time delay: both clocks in epoch ms, the frame's modulo 2^32 (docs/terminal-protocol.md). */
export function delayOf(timestamp: number, now = Date.now()): number {
  return (now - timestamp + 2 ** 32) % 2 ** 32;
}

/**
 * The `avc1.PPCCLL` codec string of an H.264 stream, read from the SPS (NAL type 7) of an Annex B
 * access unit; undefined when the unit carries none.
 */
export function avcCodecString(payload: Uint8Array): string | undefined {
  for (let i = 0; i + 6 < payload.length; i += 1) {
    if (payload[i] !== 0 || payload[i + 1] !== 0 || payload[i + 2] !== 1) continue;
    if (((payload[i + 3] as number) & 0x1f) !== 7) continue;
    const hex = (n: number) => (payload[n] as number).toString(16).padStart(2, '0');
    return `avc1.${hex(i + 4)}${hex(i + 5)}${hex(i + 6)}`;
  }
  return undefined;
}

/** Decoded pictures waiting beyond this many make the decoder skip to the next key frame. */
const MAX_DECODE_QUEUE = 8;

/**
 * Decodes one stream onto a canvas: JPEG with the browser's image decoder (createImageBitmap),
 * H.264 with WebCodecs VideoDecoder fed Annex B access units (no `description`: WebCodecs then
 * takes the parameter sets in band). Pictures are drawn as they come; a decoder that falls behind
 * skips to the next key frame rather than showing an ever later picture.
 */
export class StreamDecoder {
  private readonly context: CanvasRenderingContext2D | null;
  private decoder: VideoDecoder | null = null;
  private waitForKey = true;
  private pendingImages = 0;
  private readonly drawnAt: number[] = [];
  private closed = false;
  readonly stats: StreamStats = { width: 0, height: 0, fps: 0, delayMs: null, decoded: 0, dropped: 0 };

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly onStats: (stats: StreamStats) => void,
  ) {
    this.context = canvas.getContext('2d');
  }

  push(frame: EncodedVideo): void {
    if (this.closed) return;
    if (frame.codec === VideoCodec.jpeg) return this.jpeg(frame);
    if (frame.codec === VideoCodec.h264) return this.h264(frame);
    this.stats.dropped += 1;
  }

  close(): void {
    this.closed = true;
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = null;
  }

  private jpeg(frame: EncodedVideo): void {
    if (this.pendingImages >= MAX_DECODE_QUEUE) {
      this.stats.dropped += 1;
      return;
    }
    this.pendingImages += 1;
    const blob = new Blob([frame.payload as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' });
    createImageBitmap(blob).then(
      (bitmap) => {
        this.pendingImages -= 1;
        this.draw(bitmap, bitmap.width, bitmap.height, frame.timestamp);
        bitmap.close();
      },
      () => {
        this.pendingImages -= 1;
        this.stats.dropped += 1;
      },
    );
  }

  private h264(frame: EncodedVideo): void {
    const key = isVideoKeyFrame(frame.codec, frame.payload);
    if (this.waitForKey && !key) {
      this.stats.dropped += 1;
      return;
    }
    if (key && !this.decoder) {
      const codec = avcCodecString(frame.payload);
      if (!codec || typeof VideoDecoder === 'undefined') {
        this.stats.dropped += 1;
        return;
      }
      this.decoder = new VideoDecoder({
        output: (picture) => {
          this.draw(picture, picture.displayWidth, picture.displayHeight, picture.timestamp / 1000);
          picture.close();
        },
        error: () => {
          this.decoder = null;
          this.waitForKey = true;
        },
      });
      this.decoder.configure({ codec, optimizeForLatency: true });
    }
    const decoder = this.decoder;
    if (!decoder || decoder.state !== 'configured') return;
    if (decoder.decodeQueueSize > MAX_DECODE_QUEUE && !key) {
      this.stats.dropped += 1;
      this.waitForKey = true;
      return;
    }
    this.waitForKey = false;
    decoder.decode(
      new EncodedVideoChunk({
        type: key ? 'key' : 'delta',
        // Microseconds; the capture time rides along so the delay is known when the picture comes out.
        timestamp: frame.timestamp * 1000,
        data: frame.payload,
      }),
    );
  }

  private draw(image: CanvasImageSource, width: number, height: number, timestamp: number): void {
    if (this.closed || !this.context) return;
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    this.context.drawImage(image, 0, 0, width, height);
    const now = performance.now();
    this.drawnAt.push(now);
    while ((this.drawnAt[0] as number) < now - 1000) this.drawnAt.shift();
    Object.assign(this.stats, {
      width,
      height,
      fps: this.drawnAt.length,
      delayMs: delayOf(timestamp),
      decoded: this.stats.decoded + 1,
    });
    this.onStats(this.stats);
  }
}
