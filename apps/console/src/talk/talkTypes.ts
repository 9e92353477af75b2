import type { TalkAgentEvent, TalkSeat, TalkVideoSource } from '@intercom/contract';

/** Who carries the dispatcher's audio: the local talk agent, or this browser tab itself. */
export type TalkMode = 'agent' | 'browser';

/** The talk connection (agent socket, or the browser's `/terminal` socket). */
export type TalkConnection = 'idle' | 'connecting' | 'connected' | 'disconnected';

/** Whether a local agent answered on 127.0.0.1:12002 (`unknown` until the first probe ends). */
export type AgentPresence = 'unknown' | 'present' | 'absent';

export interface FloorHolder {
  /** U_ID of the talker; 0 for a dispatcher seat. */
  uid: number;
  name: string;
  priority: number;
}

/** One floor (a channel or a private call) the seat hears. */
export interface FloorState {
  cid: number;
  holder: FloorHolder | null;
  /** Epoch ms the current holder got the floor (or the floor went idle). */
  since: number;
  /** The seat itself holds it. */
  mine: boolean;
}

export interface TalkCall {
  /** The call's floor id (CALL_ID_BASE and up). */
  cid: number;
  peerUid: number;
  peerName: string;
  incoming: boolean;
  /** Opened by the peer's SOS or ManDown (docs/safety.md): answered with answerCall. */
  emergency?: boolean;
}

/** The seat lost a floor it held: shown plainly until the next talk. */
export interface FloorLoss {
  cid: number;
  reason: string;
  at: number;
}

/** The microphone: off, asking for the floor, or sending. */
export type MicState = 'off' | 'requesting' | 'on';

/** Everything the talk UI shows; replaced (never mutated) on every change. */
export interface TalkState {
  mode: TalkMode | null;
  agent: AgentPresence;
  connection: TalkConnection;
  seat: TalkSeat | null;
  /** The current channel or call: where ApplyMic talks. */
  current: number | null;
  /** Channels listened to besides the current one. */
  monitored: readonly number[];
  floors: ReadonlyMap<number, FloorState>;
  calls: ReadonlyMap<number, TalkCall>;
  mic: MicState;
  /** 0..1 while the seat talks. */
  micLevel: number;
  lastLoss: FloorLoss | null;
  videos: readonly TalkVideoSource[];
  /** Browser talk needs a secure context (HTTPS or localhost) for the microphone. */
  secureContext: boolean;
  /** Opus through WebCodecs is available in this browser. */
  webCodecs: boolean;
  /** Names of the channels and calls the UI told (cid -> name), for the panel. */
  names: ReadonlyMap<number, string>;
  /** The AuthCode of the last login (used once; shown in the intercom-account dialog). */
  authCode: string | null;
}

/**
 * A status of SPEC.md section 8 (talk service texts) or a chat-account text: the i18n key under
 * `talk.status` and whether it is good news, a warning or an error (antd message level).
 */
export interface TalkStatus {
  key: TalkStatusKey;
  level: 'success' | 'info' | 'warning' | 'error';
  params?: Record<string, string | number>;
}

export type TalkStatusKey =
  | 'service_updating'
  | 'update_failed'
  | 'update_success'
  | 'monitor_disconnected'
  | 'talk_connected'
  | 'talk_disconnected'
  | 'login_success'
  | 'command_sent'
  | 'command_failed'
  | 'idle'
  | 'user_speaking'
  | 'not_logged_in'
  | 'not_connected'
  | 'mic_apply_success'
  | 'mic_release_success'
  | 'no_chat_account'
  | 'chat_account_failed'
  | 'no_talk_account'
  | 'account_shortage'
  | 'insecure_context'
  | 'no_webcodecs'
  | 'no_microphone'
  | 'preempted'
  | 'floor_busy';

/** A video frame as it arrives (kind 2, server-to-viewer layout of packages/contract/src/video.ts). */
export interface TalkVideoFrame {
  uid: number;
  /** VideoCodec: 1 H.264 Annex B, 2 JPEG. */
  codec: number;
  /** ms, the terminal's clock. */
  timestamp: number;
  /** The encoded payload (a view into the received frame; copy it to keep it). */
  payload: Uint8Array;
}

/** Where a transport reports to: connection changes, the contract's events, video frames, mic level. */
export interface TransportSink {
  connection(state: TalkConnection): void;
  event(event: TalkAgentEvent): void;
  video(frame: TalkVideoFrame): void;
  /** The monitor service's events (agent only). */
  monitorState?(state: 'connected' | 'disconnected'): void;
  update?(state: 'updating' | 'success' | 'failed'): void;
}

/** What the console needs to log a seat in (SPEC.md 3 talk login payload, minus what each transport finds). */
export interface SeatLogin {
  proxy: string;
  partyId: number;
  account: string;
  authCode: string;
  dispatchNo: string;
}

/** A channel `Monitor` could not join, and the refusal's code (`not_member`, ...). */
export interface MonitorFailure {
  cid: number;
  code: string;
}

/** The agent and the browser seat behind one interface; every call rejects with a TalkError. */
export interface TalkTransport {
  readonly mode: TalkMode;
  start(sink: TransportSink): void;
  stop(): void;
  login(login: SeatLogin): Promise<TalkSeat>;
  logout(): Promise<void>;
  groupCall(cid: number): Promise<void>;
  /** Returns the call's cid. */
  privateCall(uid: number): Promise<number>;
  endCall(cid: number): Promise<void>;
  /** Takes an offered emergency call as the current one (talk-agent `AnswerCall`). */
  answerCall(cid: number): Promise<void>;
  applyMic(cid: number): Promise<void>;
  freeMic(cid: number): Promise<void>;
  /** Resolves with the channels that could not be joined, where the transport reports them (the agent). */
  monitor(cids: readonly number[]): Promise<MonitorFailure[] | void>;
  applyVideo(uid: number): Promise<void>;
  freeVideo(uid: number): Promise<void>;
}

/** A refused talk command: `code` is a TalkAgentErrors code or a server code (`busy`, `not_member`...). */
export class TalkError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'TalkError';
  }
}
