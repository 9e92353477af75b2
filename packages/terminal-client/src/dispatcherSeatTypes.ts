import type { TalkSeat } from '@intercom/contract';
import type { AudioDown, VideoDown } from './frames.js';

/** Where one talk's microphone goes: the seat frames and sends the packets and tells the levels. */
export interface SeatMic {
  /** One 20 ms Opus packet. */
  packet(opus: Uint8Array): void;
  /** 0..1, as often as the back-end likes; told as `micLevel` while the talk lasts. */
  level(value: number): void;
}

/**
 * The sound of a seat, the part that differs between the talk agent (Opus encoder, sox/ffmpeg
 * microphone, playout) and the browser (WebCodecs, AudioWorklet).
 */
export interface SeatAudio {
  /**
   * Readies the microphone before the floor is asked for, so a permission prompt never holds a
   * floor; throws (SeatError `no_microphone`) when there is none.
   */
  openMic(): Promise<void> | void;
  /** The floor of `cid` is granted: hand each packet to `mic` until stopSending. */
  startSending(cid: number, mic: SeatMic): Promise<void> | void;
  /**
   * Stops the microphone. Packets it captured before still go to the talk's `mic` until the
   * returned promise settles (a browser's encoder lags behind its capture); the seat then stops
   * sending and releases the floor.
   */
  stopSending(): Promise<void> | void;
  /** A heard frame; `opus` is a view into the received bytes. */
  play(heard: AudioDown): void;
  /** A video frame, decoded, and the bytes as they came (the agent forwards them unchanged). */
  video(frame: VideoDown, bytes: Uint8Array): void;
}

export interface SeatLogin {
  /** The one-time code of `POST /api/Talk/AuthCode`. */
  authCode: string;
  /** The seat the console expects (`D<A_ID>`): another granted seat is `account_mismatch`. */
  dispatchNo: string;
  /** Names the platform: a login to the one the seat was lost from joins its channels again. */
  server: string;
}

/** The seat's state, as the agent's LoginInfo tells it. */
export interface SeatInfo {
  loggedIn: boolean;
  seat: TalkSeat | null;
  /** The current channel or call: where applyMic talks by default. */
  cid: number | null;
  /** The joined channels, ascending. */
  monitor: number[];
  calls: number[];
  /** The emergency calls among `calls` (offered by an SOS or ManDown; answerCall takes one). */
  emergency: number[];
  /** The floor the seat sends audio to. */
  talking: number | null;
}
