import { z } from 'zod';

/**
 * The local talk service ("talk agent", apps/talk-agent) and the console speak this on
 * ws://127.0.0.1:12002 (talk) and ws://127.0.0.1:12001 (monitor). DESIGN.md section 7, SPEC.md
 * sections 3 (talk login payload), 4 (local talk service), 7 (local services), 9 (ports);
 * every message is written out in docs/talk-agent-protocol.md.
 *
 * Commands are JSON text frames `{cmd, id, ...args}`; each gets exactly one reply `{id, ok, code?, ...}`;
 * events `{event, ...}` arrive at any time. Video frames reach the console as binary frames with the
 * server-to-viewer layout of the terminal protocol (kind u8 = 2 · U_ID u32 · codec u8 · timestamp u32 ·
 * payload). This module is the one definition the agent and the console share.
 */
export const TalkAgentPorts = { monitor: 12001, talk: 12002 } as const;

/** The console retries a talk service it lost this often (SPEC.md 9). */
export const TALK_RETRY_MS = 5_000;

/** Push-to-talk key: Space (SPEC.md 9). */
export const PTT_KEY_CODE = 32;

const commandId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const uid = z.number().int().min(1).max(0xffff_ffff);
const cid = z.number().int().min(1).max(0xffff_ffff);
const command = <C extends string, S extends z.ZodRawShape>(name: C, shape: S) =>
  z.object({ cmd: z.literal(name), id: commandId, ...shape }).strict();

/**
 * Talk login payload (SPEC.md 3): `Proxy` is the platform's origin (http(s)://host:port), `PartyID` the
 * enterprise (E_ID), `Uid` the console account's name, `AuthCode` the one-time code from
 * `POST /api/Talk/AuthCode`, `RecvUid` the seat's dispatch number (`D<A_ID>`): the agent refuses a
 * seat the server grants under another number (`account_mismatch`).
 */
export const talkLoginSchema = command('Login', {
  Proxy: z.string().url().max(2048),
  PartyID: z.number().int().min(1).max(0xffff_ffff),
  Uid: z.string().min(1).max(64),
  AuthCode: z.string().regex(/^[A-Za-z0-9_-]{32}$/),
  RecvUid: z.string().regex(/^D\d{1,10}$/),
});

/** Commands of the talk service (12002). */
export const talkAgentCommands = [
  talkLoginSchema,
  command('LoginInfo', {}),
  command('VideoList', {}),
  /** Make `cid` the seat's current channel (joined and listened to) for ApplyMic. */
  command('GroupCall', { cid }),
  /** Private call to a user of the seat's scope; the reply carries the call's `cid`. Added to SPEC's list. */
  command('PrivateCall', { uid }),
  /** Leave a channel or hang up a call (`cid` from CALL_ID_BASE up); without `cid`, the current one. */
  command('EndCall', { cid: cid.optional() }),
  command('LogOut', {}),
  /** Ask for the floor of `cid` (default: the current channel or call); the agent then sends the microphone. */
  command('ApplyMic', { cid: cid.optional() }),
  command('FreeMic', { cid: cid.optional() }),
  /** The set of channels the seat listens to (replaces the previous set; at most 256). */
  command('Monitor', { cids: z.array(cid).max(256) }),
  command('ApplyVideo', { uid }),
  command('FreeVideo', { uid }),
  /**
   * Take an emergency call the seat was offered (`callStart` with `emergency`) as the current one, so
   * ApplyMic talks in it. Added to SPEC's list (docs/talk-agent-protocol.md, docs/safety.md).
   */
  command('AnswerCall', { cid }),
] as const;

export const talkAgentCommandSchema = z.discriminatedUnion('cmd', talkAgentCommands);
export type TalkAgentCommand = z.infer<typeof talkAgentCommandSchema>;
export type TalkAgentCommandName = TalkAgentCommand['cmd'];

/** Commands of the monitor service (12001). */
export const monitorAgentCommands = [
  command('Version', {}),
  command('Health', {}),
  /** Fetch the server's plugin package and restart on it (events `update`). */
  command('Update', {}),
] as const;
export const monitorAgentCommandSchema = z.discriminatedUnion('cmd', monitorAgentCommands);
export type MonitorAgentCommand = z.infer<typeof monitorAgentCommandSchema>;

/** Error codes of replies; a server error code (`busy`, `not_member`, `not_found`, ...) is passed through as is. */
export const TalkAgentErrors = {
  badJson: 'bad_json',
  badRequest: 'bad_request',
  unknownCommand: 'unknown_command',
  /** A command that needs a seat before Login (SPEC.md 8: "the talk account is not logged in"). */
  notLoggedIn: 'not_logged_in',
  /** The platform (Proxy) cannot be reached. */
  serverUnreachable: 'server_unreachable',
  accountMismatch: 'account_mismatch',
  /** No microphone (no audio back-end, or the device failed). */
  noMicrophone: 'no_microphone',
  /** Update: the server is plain http on another computer (https is required except on loopback). */
  updateInsecure: 'update_insecure',
  /** Update: the server has no package (or answered with an error). */
  updateUnavailable: 'update_unavailable',
  /** Update: the package carries no signature (or the agent pins no key) and --allow-unsigned-update is off. */
  updateUnsigned: 'update_unsigned',
  /** Update: the signature does not match the package with any key the agent pins (tampered, or another key). */
  updateBadSignature: 'update_bad_signature',
  /** Update: the per-user update folder is a symbolic link, not a folder, or owned by another user. */
  updateUnsafeDir: 'update_unsafe_dir',
} as const;

export interface TalkSeat {
  dispatchNo: string;
  A_ID: number;
  E_ID: number;
  name: string;
  priority: number;
}

/** Reply to a command: `ok: false` carries an error `code` (TalkAgentErrors or a server code) and a `message`. */
export type TalkAgentReply =
  ({ id: number; ok: true } & Record<string, unknown>) | { id: number; ok: false; code: string; message?: string };

export interface TalkVideoSource {
  uid: number;
  name: string;
  codecs: string[];
}

/** Events of the talk service (12002). Floor and call events are the server's, forwarded as they come. */
export type TalkAgentEvent =
  | { event: 'server'; state: 'connected' | 'disconnected' }
  | { event: 'loggedOut'; reason: 'logout' | 'session_end' | 'replaced' | 'server_lost' }
  | { event: 'floorTaken'; cid: number; uid: number; name: string; priority: number }
  | { event: 'floorIdle'; cid: number }
  | { event: 'floorRevoked'; cid: number; reason: string }
  | { event: 'callStart'; cid: number; from: number; name: string; emergency?: boolean }
  /** The seat was put in an incident's channel; it hears it like a monitored one. */
  | { event: 'regrouped'; cid: number; name: string; incident: number }
  | { event: 'channelLeft'; cid: number; reason: string }
  | { event: 'callEnd'; cid: number }
  /** Microphone level 0..1, about 10 a second while the seat talks. */
  | { event: 'micLevel'; level: number }
  | { event: 'videoOnline'; video: TalkVideoSource }
  | { event: 'videoOffline'; uid: number };

/** Events of the monitor service (12001): self-update progress (SPEC.md 8 texts); `failed` names its `code`. */
export type MonitorAgentEvent = {
  event: 'update';
  state: 'updating' | 'success' | 'failed';
  version?: string;
  code?: string;
};
