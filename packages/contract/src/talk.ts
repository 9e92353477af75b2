import { z } from 'zod';

/**
 * Push-to-talk on `/terminal` (DESIGN.md section 7, docs/terminal-protocol.md): channel
 * selection, floor control, binary Opus frames, private calls and dispatcher seats.
 */
export const TalkLimits = {
  /** Largest Opus packet (RFC 6716: 1275 bytes for one frame); larger frames are refused `too_large`. */
  maxOpusBytes: 1275,
  /** A talker sends one 20 ms packet per 50th of a second; this many frames a second are allowed on average... */
  framesPerSecond: 60,
  /** ...and this many at once (a terminal that buffered on a bad network catches up). */
  framesBurst: 100,
  /** Frames over the limit in a row after which the talker loses the floor (reason `flooding`). */
  floodCutAfter: 50,
  /** Default maximum talk time (enterprise setting TalkMaxSeconds). */
  maxTalkSeconds: 60,
  /** The floor is released after this long without audio from its holder. */
  silenceMs: 2_000,
  /** Pre-emption: how long the revoked talker may still finish (3GPP TS 24.380 "pending revoke"). */
  revokeGraceMs: 100,
  /** Default priority of a dispatcher seat (enterprise setting DispatchPriority). */
  dispatchPriority: 7,
  /** Channels one dispatcher seat may listen to at once. */
  seatChannels: 256,
  /** An AuthCode is valid this long and once. */
  authCodeTtlMs: 60_000,
} as const;

/** Binary frame layouts (big-endian). Terminal to server: kind u8 · cid u32 · seq u16 · Opus. */
export const AudioFrame = {
  kindOpus: 1,
  upHeaderBytes: 7,
  /** Server to listener: kind u8 · cid u32 · speaker U_ID u32 · seq u16 · Opus (speaker 0: a dispatcher seat). */
  downHeaderBytes: 11,
} as const;

/** Private calls get floor ids from this value up, so they never equal a channel id. */
export const CALL_ID_BASE = 0x8000_0000;

/** Why a talker lost the floor (`floorRevoked.reason`). */
export const FLOOR_REVOKE_REASONS = ['preempted', 'timeout', 'silence', 'flooding'] as const;
export type FloorRevokeReason = (typeof FLOOR_REVOKE_REASONS)[number];

/** Error codes of the talk messages (added to TerminalErrors). */
export const TalkErrors = {
  /** Someone of equal or higher priority holds the floor. */
  busy: 'busy',
  notMember: 'not_member',
  notJoined: 'not_joined',
  /** No such channel or call in the caller's scope (never reveals one elsewhere). */
  notFound: 'not_found',
  /** The called user is not connected, or is the caller. */
  unavailable: 'unavailable',
  /** AuthCode unknown, used or expired. */
  badAuthCode: 'bad_auth_code',
  /** A binary frame that is not `kind 1 · cid · seq · Opus`. */
  badFrame: 'bad_frame',
} as const;

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const id = z.number().int().min(1).max(0xffff_ffff);
const message = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ seq, type: z.literal(type), ...shape });

/** Messages of the talk service a terminal or dispatcher seat sends. */
export const talkClientMessages = [
  message('join', { cid: id }),
  message('leave', { cid: id }),
  message('floorRequest', { cid: id }),
  message('floorRelease', { cid: id }),
  message('call', { uid: id }),
  message('hangup', { cid: id }),
  /** The user's channels in its enterprise, acked `{ channels: TerminalChannel[] }` (terminal users only). */
  message('channels', {}),
] as const;

/** One channel of the `channels` ack: its id and name, its members, and how many of them are online now. */
export interface TerminalChannel {
  cid: number;
  name: string;
  online: number;
  members: number;
}

/** Messages the server pushes about talking. */
export type TalkServerMessage =
  | { type: 'floorTaken'; cid: number; uid: number; name: string; priority: number }
  | { type: 'floorIdle'; cid: number }
  | { type: 'floorRevoked'; cid: number; reason: FloorRevokeReason }
  | { type: 'callStart'; cid: number; from: number; name: string }
  /**
   * An emergency call opened by a terminal's `sos` or `manDown` (docs/safety.md): seats get `from`
   * and `name`, the terminal only `cid`. Its floor is granted to the terminal over anyone.
   */
  | { type: 'callStart'; cid: number; emergency: true; from?: number; name?: string }
  | { type: 'callEnd'; cid: number }
  /** The terminal was put in an incident's channel (docs/safety.md): it hears it at once. */
  | { type: 'regrouped'; cid: number; name: string; incident: number }
  /**
   * The terminal left a channel it had not left itself: removed from it, out of the incident's zone,
   * or the incident was closed. It hears it no more.
   */
  | { type: 'channelLeft'; cid: number; reason: 'removed' | 'left_zone' | 'incident_closed' }
  /** The user's channel list changed (added or removed, a channel renamed or deleted): ask `channels` again. */
  | { type: 'channelsChanged' };

/** Floor priority of the terminal in its own emergency call: above every seat and member (0-7). */
export const EMERGENCY_PRIORITY = 8;

/** `POST /api/Talk/AuthCode`: a one-time code for a dispatcher seat login on `/terminal`. */
export const authCodeSchema = z.object({
  authCode: z.string(),
  /** Epoch ms. */
  expiresAt: z.number().int(),
  /** The seat's identity, `D<A_ID>`. */
  dispatchNo: z.string(),
});
export type AuthCode = z.infer<typeof authCodeSchema>;

/** The shape of an AuthCode: 32 url-safe base64 characters. */
export const AUTH_CODE_PATTERN = /^[A-Za-z0-9_-]{32}$/;
