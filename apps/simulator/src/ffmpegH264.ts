import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { FlvAvcReader } from './flvAvcReader.js';

let available: boolean | undefined;

/** True when `ffmpeg` is on the PATH and has libx264 (checked once per process). */
export function ffmpegH264Available(): boolean {
  if (available === undefined) {
    const probe = spawnSync('ffmpeg', ['-hide_banner', '-encoders'], { encoding: 'utf8', timeout: 10_000 });
    available = probe.status === 0 && /\blibx264\b/.test(probe.stdout);
  }
  return available;
}

/** One encoded picture and the capture time of the raw picture it came from. */
export interface EncodedPicture {
  annexB: Uint8Array;
  key: boolean;
  /** Epoch ms at which the raw picture was handed to the encoder (drawn). */
  capturedAt: number;
}

export interface FfmpegH264Setup {
  width: number;
  height: number;
  fps: number;
  /** Called for every picture as soon as the encoder has written it. */
  onPicture: (picture: EncodedPicture) => void;
  /** ffmpeg stopped by itself (not through `close`): its last lines of stderr. */
  onExit?: (reason: string) => void;
}

/** Raw pictures handed to ffmpeg and not yet back encoded, beyond which a new one is not given. */
export const MAX_PICTURES_IN_ENCODER = 3;

/**
 * A live H.264 encoder: raw RGBA pictures go into ffmpeg (libx264) on stdin, pictures come back
 * on stdout in FLV (each picture framed by its length: see FlvAvcReader). The settings are a
 * camera's for live viewing: `-tune zerolatency` (no look-ahead, no B-frames, one picture in, one
 * out), Constrained Baseline (what every WebCodecs decoder takes), a key frame every second, one
 * thread (a single slice per picture). Each picture keeps the capture time of its raw picture, by
 * its frame number, so the delay counted by a viewer includes the encoder's own time.
 */
export class FfmpegH264Encoder {
  private readonly process: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly reader = new FlvAvcReader();
  /** Capture time of each raw picture in the encoder, by frame number. */
  private readonly capturedAt = new Map<number, number>();
  private written = 0;
  private closed = false;
  private stderrTail = '';

  constructor(private readonly setup: FfmpegH264Setup) {
    const { width, height, fps } = setup;
    // 0.2 bit a pixel: a clean test picture at any size; the buffer of half a second keeps key frames small.
    const bits = Math.round(width * height * fps * 0.2);
    // `-probesize 32 -analyzeduration 0`: encoding starts at the first picture instead of ffmpeg
    // holding pictures back to probe an input whose format it is told (`-fflags nobuffer` would make
    // ffmpeg 5.1 lose the first picture). `-flush_packets 1`: each picture is written out at once.
    // prettier-ignore
    const args = [
      '-hide_banner', '-loglevel', 'error', '-nostdin',
      '-f', 'rawvideo', '-pix_fmt', 'rgba', '-video_size', `${width}x${height}`, '-framerate', String(fps),
      '-probesize', '32', '-analyzeduration', '0', '-i', 'pipe:0',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline',
      '-pix_fmt', 'yuv420p', '-g', String(fps), '-keyint_min', String(fps), '-bf', '0', '-threads', '1',
      '-b:v', String(bits), '-maxrate', String(bits), '-bufsize', String(Math.round(bits / 2)),
      '-f', 'flv', '-flush_packets', '1', 'pipe:1',
    ];
    // -nostdin only stops ffmpeg reading commands from the terminal; pipe:0 is still its input.
    this.process = spawn('ffmpeg', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.process.stdin.on('error', () => undefined);
    this.process.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.process.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = `${this.stderrTail}${chunk.toString('utf8')}`.slice(-500);
    });
    this.process.on('error', (error) => this.exited(error.message));
    this.process.on('exit', (code, signal) => this.exited(`ffmpeg exited (${signal ?? code})`));
  }

  /** Pictures handed to ffmpeg and not back yet. */
  get inEncoder(): number {
    return this.capturedAt.size;
  }

  /**
   * Hands one raw picture (RGBA, width x height) to the encoder. False, and nothing is sent, while
   * the encoder still holds MAX_PICTURES_IN_ENCODER (a loaded machine: the camera drops pictures
   * instead of falling behind) or after it stopped.
   */
  encode(rgba: Uint8Array, capturedAt: number): boolean {
    if (this.closed || this.inEncoder >= MAX_PICTURES_IN_ENCODER) return false;
    this.capturedAt.set(this.written, capturedAt);
    this.written += 1;
    // A copy: the caller draws the next picture into the same buffer.
    this.process.stdin.write(Buffer.from(rgba));
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.process.stdin.end();
    this.process.kill('SIGKILL');
  }

  private read(chunk: Buffer): void {
    let units;
    try {
      units = this.reader.push(chunk);
    } catch (error) {
      this.setup.onExit?.(error instanceof Error ? error.message : String(error));
      this.close();
      return;
    }
    for (const unit of units) {
      const frame = Math.round((unit.timestampMs * this.setup.fps) / 1000);
      const capturedAt = this.capturedAt.get(frame);
      // Pictures before it that never came out (none with these settings) are forgotten too.
      for (const n of this.capturedAt.keys()) if (n <= frame) this.capturedAt.delete(n);
      if (capturedAt === undefined || this.closed) continue;
      this.setup.onPicture({ annexB: unit.annexB, key: unit.key, capturedAt });
    }
  }

  private exited(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    const detail = this.stderrTail.trim().split('\n').at(-1);
    this.setup.onExit?.(detail ? `${reason}: ${detail}` : reason);
  }
}
