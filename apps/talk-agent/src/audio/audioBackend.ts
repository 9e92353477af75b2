/**
 * Where the agent's sound comes from and goes to. Every back-end speaks 48 kHz mono s16 in 20 ms
 * frames (pcmFormat.ts).
 */
export interface Microphone {
  /** Names the back-end in Health ("file:/path/mic.wav", "sox", "ffmpeg"). */
  readonly name: string;
  /** Starts capture: `onFrame` gets 960 samples every 20 ms until stop(). */
  start(onFrame: (pcm: Int16Array) => void): void;
  stop(): void;
}

export interface Speaker {
  readonly name: string;
  /** Plays one 20 ms frame (the playout clock calls it in real time). */
  write(pcm: Int16Array): void;
  close(): void;
}

/** A speaker for machines with none: the sound is decoded (so levels and tests still work) and dropped. */
export class NullSpeaker implements Speaker {
  readonly name = 'none';
  write(): void {}
  close(): void {}
}
