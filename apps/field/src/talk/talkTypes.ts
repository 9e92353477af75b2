import type { FloorRevokeReason } from '@intercom/contract';

/**
 * The floor participant's states of 3GPP TS 24.380 (the terminal's side of the floor): no permission,
 * a request sent, permission held (the microphone sends), and the release on its way (the last
 * captured frames drain before `floorRelease` goes).
 */
export type FloorParticipant = 'noPermission' | 'pendingRequest' | 'hasPermission' | 'pendingRelease';

export interface OwnFloor {
  phase: FloorParticipant;
  /** The floor asked for or held (a channel or a call); 0 with no permission. */
  cid: number;
  /** When permission came (the injected clock's ms): the talk timer counts from it. */
  since: number;
  /** Let go while the request was on its way: released as soon as it is granted. */
  releaseWanted: boolean;
}

/** A private call (`callStart`): a dispatcher's rings until answered; an emergency call (after SOS) is open at once. */
export interface CallState {
  cid: number;
  /** The caller's U_ID and name; an emergency call carries none (the terminal opened it). */
  from: number | null;
  name: string | null;
  emergency: boolean;
  phase: 'ringing' | 'active';
}

export interface Talker {
  uid: number;
  name: string;
}

/** Why the last press did not talk, or why the talk ended (i18n keys `talk.reason.<reason>`). */
export type TalkNotice = { kind: 'denied'; reason: string } | { kind: 'revoked'; reason: FloorRevokeReason };

export interface TalkState {
  /** The current channel (the shell's), null before one is chosen. */
  channel: number | null;
  call: CallState | null;
  own: OwnFloor;
  /** Who talks in each floor this terminal hears (its channel, its call), by cid. */
  talkers: Readonly<Record<number, Talker>>;
  notice: TalkNotice | null;
}

export type TalkEvent =
  | { type: 'press'; at: number }
  | { type: 'release' }
  | { type: 'granted'; cid: number; at: number }
  | { type: 'refused'; cid: number; reason: string }
  /** The drained talk's `floorRelease` went out. */
  | { type: 'released' }
  /** The microphone could not be opened (permission refused, no device). */
  | { type: 'micFailed' }
  | { type: 'floorTaken'; cid: number; uid: number; name: string }
  | { type: 'floorIdle'; cid: number }
  | { type: 'floorRevoked'; cid: number; reason: FloorRevokeReason }
  | { type: 'channel'; cid: number | null }
  | { type: 'callStart'; cid: number; from: number | null; name: string | null; emergency: boolean }
  | { type: 'callEnd'; cid: number }
  | { type: 'answer' }
  | { type: 'hangup' }
  | { type: 'disconnected' };

export type TalkEffect =
  | { type: 'requestFloor'; cid: number }
  | { type: 'startSending'; cid: number }
  /** Stops the microphone; `release`: once its last frames are out, sends `floorRelease` and then `released`. */
  | { type: 'stopSending'; cid: number; release: boolean }
  | { type: 'hangup'; cid: number }
  | { type: 'ring'; on: boolean };

/** What the screen shows at a glance (talkView.ts). */
export type TalkView =
  | { kind: 'idle' }
  | { kind: 'requesting' }
  | { kind: 'talking'; since: number }
  | { kind: 'listening'; talker: Talker }
  | { kind: 'denied'; reason: string; talker: Talker | null }
  | { kind: 'revoked'; reason: FloorRevokeReason };
