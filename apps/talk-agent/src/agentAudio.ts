import { TalkAgentErrors } from '@intercom/contract';
import { SeatError, type AudioDown, type SeatAudio, type SeatMic } from '@intercom/terminal-client';
import type { Microphone } from './audio/audioBackend.js';
import { micLevel } from './audio/micLevel.js';
import { OpusEncoder } from './audio/opusCodec.js';
import type { Playout } from './audio/playout.js';

/** A micLevel event every 5 frames: about 10 a second while the seat talks. */
const LEVEL_EVERY_FRAMES = 5;

export interface AgentAudioDeps {
  microphone: Microphone | undefined;
  playout: Playout;
  /** A video frame for the consoles, unchanged (server-to-viewer layout). */
  emitBinary(frame: Buffer): void;
}

/**
 * The agent's half of the seat: the microphone (sox, ffmpeg or a WAV file) through an Opus encoder
 * while the seat talks, what it hears into the playout, video frames on to the consoles as they came.
 */
export class AgentAudio implements SeatAudio {
  /** Audio frames sent upstream (Health, tests). */
  framesSent = 0;
  private encoder: OpusEncoder | undefined;

  constructor(private readonly deps: AgentAudioDeps) {}

  openMic(): void {
    if (this.deps.microphone) return;
    throw new SeatError(
      TalkAgentErrors.noMicrophone,
      'no microphone: start the agent with sox or ffmpeg on the PATH, or --mic-file',
    );
  }

  startSending(_cid: number, mic: SeatMic): void {
    this.stopSending();
    const encoder = new OpusEncoder();
    this.encoder = encoder;
    let frames = 0;
    this.deps.microphone?.start((pcm) => {
      if (this.encoder !== encoder) return;
      mic.packet(encoder.encode(pcm));
      frames += 1;
      this.framesSent += 1;
      if (frames % LEVEL_EVERY_FRAMES === 1) mic.level(micLevel(pcm));
    });
  }

  stopSending(): void {
    if (!this.encoder) return;
    this.deps.microphone?.stop();
    this.encoder.delete();
    this.encoder = undefined;
  }

  play(heard: AudioDown): void {
    this.deps.playout.push(heard.cid, heard.speaker, heard.seq, asBuffer(heard.opus));
  }

  video(_frame: unknown, bytes: Uint8Array): void {
    this.deps.emitBinary(asBuffer(bytes));
  }
}

/** `ws` hands frames over as Buffers already; anything else is wrapped without a copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
