import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Microphone, Speaker } from './audioBackend.js';
import { FRAME_BYTES, SAMPLE_RATE } from './pcmFormat.js';

/** The full path of `name` on PATH (with .exe on Windows), or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const exe = process.platform === 'win32' ? `${name}.exe` : name;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, exe);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const RAW = ['-t', 'raw', '-r', String(SAMPLE_RATE), '-e', 'signed', '-b', '16', '-c', '1'];
const FFMPEG_RAW = ['-f', 's16le', '-ar', String(SAMPLE_RATE), '-ac', '1'];

/** The system device as ffmpeg names it on this OS (Windows needs a device name: use sox there). */
function ffmpegDevice(): { input: string[]; output: string[] } | undefined {
  if (process.platform === 'darwin')
    return { input: ['-f', 'avfoundation', '-i', ':0'], output: ['-f', 'audiotoolbox', '-'] };
  if (process.platform === 'linux')
    return { input: ['-f', 'pulse', '-i', 'default'], output: ['-f', 'pulse', 'default'] };
  return undefined;
}

export interface AudioTool {
  name: 'sox' | 'ffmpeg';
  capture: string[];
  playback: string[];
  bin: string;
}

/** sox when present (every OS: `-d` is the default device), else ffmpeg (Linux PulseAudio, macOS). */
export function findAudioTool(env: NodeJS.ProcessEnv = process.env): AudioTool | undefined {
  const sox = findOnPath('sox', env);
  if (sox) {
    const device = process.platform === 'win32' ? ['-t', 'waveaudio', 'default'] : ['-d'];
    return { name: 'sox', bin: sox, capture: ['-q', ...device, ...RAW, '-'], playback: ['-q', ...RAW, '-', ...device] };
  }
  const ffmpeg = findOnPath('ffmpeg', env);
  const device = ffmpegDevice();
  if (ffmpeg && device) {
    const quiet = ['-hide_banner', '-loglevel', 'error'];
    return {
      name: 'ffmpeg',
      bin: ffmpeg,
      capture: [...quiet, ...device.input, ...FFMPEG_RAW, '-'],
      playback: [...quiet, ...FFMPEG_RAW, '-i', '-', ...device.output],
    };
  }
  return undefined;
}

/** The system microphone through a child process writing raw PCM to stdout, started per talk burst. */
export class ProcessMicrophone implements Microphone {
  readonly name: string;
  private child: ChildProcess | undefined;

  constructor(private readonly tool: AudioTool) {
    this.name = tool.name;
  }

  start(onFrame: (pcm: Int16Array) => void): void {
    this.stop();
    const child = spawn(this.tool.bin, this.tool.capture, { stdio: ['ignore', 'pipe', 'ignore'] });
    this.child = child;
    let pending: Buffer = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= FRAME_BYTES) {
        const frame = Buffer.from(pending.subarray(0, FRAME_BYTES));
        pending = pending.subarray(FRAME_BYTES);
        onFrame(new Int16Array(frame.buffer, frame.byteOffset, frame.length / 2));
      }
    });
    child.on('error', () => {});
  }

  stop(): void {
    this.child?.kill();
    this.child = undefined;
  }
}

/** The system speaker through a child process reading raw PCM on stdin; restarted if it exits. */
export class ProcessSpeaker implements Speaker {
  readonly name: string;
  private child: ChildProcess | undefined;

  constructor(private readonly tool: AudioTool) {
    this.name = tool.name;
  }

  write(pcm: Int16Array): void {
    if (!this.child || this.child.exitCode !== null) {
      this.child = spawn(this.tool.bin, this.tool.playback, { stdio: ['pipe', 'ignore', 'ignore'] });
      this.child.on('error', () => {});
      this.child.stdin!.on('error', () => {});
    }
    this.child.stdin!.write(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  }

  close(): void {
    this.child?.stdin?.end();
    this.child = undefined;
  }
}
