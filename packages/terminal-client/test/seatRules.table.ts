import type { TalkAgentEvent } from '@intercom/contract';
import { BUSY_CID, FIRST_CALL, FOREIGN_CID, type PeerMessage } from './seatRules.peer.js';

/**
 * The dispatcher seat's rules as one table (DispatcherSeat, packages/terminal-client): every
 * transport that carries a seat (the talk agent's TalkSession, the console's BrowserTransport, the
 * seat alone) runs it against the same scripted `/terminal` (seatRules.peer.ts) through
 * seatRules.run.ts. A row runs its `given` steps, then `when`, and checks what `when` did: the
 * messages the server got, the events the console got, its error, and the seat's state after it.
 */
export type SeatStep =
  /** Logs in with the AuthCode, expecting seat `D3` unless told another; then lists the videos, as both consoles do. */
  | readonly ['login', dispatchNo?: string]
  | readonly ['groupCall' | 'endCall' | 'applyMic' | 'freeMic' | 'answerCall', cid: number]
  | readonly ['privateCall', uid: number]
  | readonly ['monitor', cids: readonly number[]]
  | readonly ['logout']
  /** The server pushes a message. */
  | readonly ['push', message: PeerMessage]
  /** The server closes the seat's socket with this code (1006: the connection drops). */
  | readonly ['close', code: number];

export interface SeatState {
  loggedIn: boolean;
  /** The current channel or call. */
  cid: number | null;
  /** The joined channels, ascending (LoginInfo `monitor`). */
  monitor: number[];
  calls: number[];
  /** The emergency calls among `calls`. */
  emergency: number[];
  /** The floor the seat sends audio to. */
  talking: number | null;
  /** The audio back-end's microphone is sending. */
  mic: boolean;
}

export interface SeatRule {
  rule: string;
  given: readonly SeatStep[];
  when: SeatStep;
  /** Messages the server got during `when`, in order, without seq or heartbeats. */
  sent: readonly PeerMessage[];
  /** Events during `when`, micLevel and the agent's `server` aside (default none). */
  events?: readonly TalkAgentEvent[];
  /** The code `when` fails with. */
  error?: string;
  /** Audio frames the server got during `when`: the fake microphones send two packets when started. */
  frames?: readonly { cid: number; seq: number }[];
  state: Partial<SeatState>;
}

/** The AuthCode every row logs in with. */
export const SEAT_AUTH_CODE = 'k'.repeat(32);

const LOGIN: SeatStep = ['login'];
const LOGGED_IN = { type: 'login', authCode: SEAT_AUTH_CODE };
const LISTS = { type: 'videoList' };
const IDLE: SeatState = { loggedIn: true, cid: null, monitor: [], calls: [], emergency: [], talking: null, mic: false };
/** An emergency call offered to the seat (an SOS), and a plain private call pushed to it. */
const EMERGENCY = FIRST_CALL + 8;
const OFFERED: SeatStep = ['push', { type: 'callStart', cid: EMERGENCY, from: 9, name: 'Patrol 9', emergency: true }];
const PLAIN: SeatStep = ['push', { type: 'callStart', cid: FIRST_CALL + 4, from: 9, name: 'Patrol 9' }];
const ENDED: SeatState = { ...IDLE, loggedIn: false };

export const SEAT_RULES: readonly SeatRule[] = [
  // Login and its end.
  {
    rule: 'login with the expected seat number',
    given: [],
    when: LOGIN,
    sent: [LOGGED_IN, LISTS],
    state: IDLE,
  },
  {
    rule: 'login granting another seat number logs it out again: account_mismatch',
    given: [],
    when: ['login', 'D9'],
    sent: [LOGGED_IN, { type: 'logout' }],
    error: 'account_mismatch',
    state: ENDED,
  },
  {
    rule: 'a command before login: not_logged_in, nothing sent',
    given: [],
    when: ['groupCall', 42],
    sent: [],
    error: 'not_logged_in',
    state: ENDED,
  },
  {
    rule: 'monitor before login: not_logged_in',
    given: [],
    when: ['monitor', [42]],
    sent: [],
    error: 'not_logged_in',
    state: ENDED,
  },
  {
    rule: 'logout ends the seat and its channels, told as loggedOut logout',
    given: [LOGIN, ['groupCall', 42], ['monitor', [43]]],
    when: ['logout'],
    sent: [{ type: 'logout' }],
    events: [{ event: 'loggedOut', reason: 'logout' }],
    state: ENDED,
  },
  {
    rule: 'close 4001: loggedOut replaced, the seat and its channels are gone',
    given: [LOGIN, ['groupCall', 42], ['applyMic', 42]],
    when: ['close', 4001],
    sent: [],
    events: [{ event: 'loggedOut', reason: 'replaced' }],
    state: ENDED,
  },
  {
    rule: 'close 4002: loggedOut session_end',
    given: [LOGIN, ['groupCall', 42]],
    when: ['close', 4002],
    sent: [],
    events: [{ event: 'loggedOut', reason: 'session_end' }],
    state: ENDED,
  },
  {
    rule: 'a login to the platform the seat was lost from joins its channels again',
    given: [LOGIN, ['groupCall', 42], ['monitor', [43]], ['close', 1006]],
    when: LOGIN,
    sent: [LOGGED_IN, { type: 'join', cid: 42 }, { type: 'join', cid: 43 }, LISTS],
    state: { ...IDLE, monitor: [42, 43] },
  },

  // Channels.
  {
    rule: 'group call joins the channel and makes it current',
    given: [LOGIN],
    when: ['groupCall', 42],
    sent: [{ type: 'join', cid: 42 }],
    state: { ...IDLE, cid: 42, monitor: [42] },
  },
  {
    rule: 'monitor joins the wanted channels and keeps the current one',
    given: [LOGIN, ['groupCall', 42]],
    when: ['monitor', [43]],
    sent: [{ type: 'join', cid: 43 }],
    state: { ...IDLE, cid: 42, monitor: [42, 43] },
  },
  {
    rule: 'monitor replaces the set: channels no longer wanted are left',
    given: [LOGIN, ['groupCall', 42], ['monitor', [43, 44]]],
    when: ['monitor', [44]],
    sent: [{ type: 'leave', cid: 43 }],
    state: { ...IDLE, cid: 42, monitor: [42, 44] },
  },
  {
    rule: 'monitor of a channel the server refuses: the others are joined',
    given: [LOGIN],
    when: ['monitor', [43, FOREIGN_CID]],
    sent: [
      { type: 'join', cid: 43 },
      { type: 'join', cid: FOREIGN_CID },
    ],
    state: { ...IDLE, monitor: [43] },
  },
  {
    rule: 'end call on a monitored channel keeps it monitored: no leave, no longer current',
    given: [LOGIN, ['groupCall', 42], ['monitor', [42]]],
    when: ['endCall', 42],
    sent: [],
    state: { ...IDLE, monitor: [42] },
  },
  {
    rule: 'end call on a monitored channel while talking there releases the floor and stops the mic',
    given: [LOGIN, ['groupCall', 42], ['monitor', [42]], ['applyMic', 42]],
    when: ['endCall', 42],
    sent: [{ type: 'floorRelease', cid: 42 }],
    state: { ...IDLE, monitor: [42] },
  },
  {
    rule: 'end call on a channel that is not monitored leaves it',
    given: [LOGIN, ['groupCall', 42]],
    when: ['endCall', 42],
    sent: [{ type: 'leave', cid: 42 }],
    state: IDLE,
  },
  {
    rule: 'end call on an unmonitored channel while talking there leaves it and stops the mic',
    given: [LOGIN, ['groupCall', 42], ['applyMic', 42]],
    when: ['endCall', 42],
    sent: [{ type: 'leave', cid: 42 }],
    state: IDLE,
  },
  {
    rule: 'a current channel dropped from the monitored set is left by end call',
    given: [LOGIN, ['groupCall', 42], ['monitor', [42, 43]], ['monitor', [43]]],
    when: ['endCall', 42],
    sent: [{ type: 'leave', cid: 42 }],
    state: { ...IDLE, monitor: [43] },
  },

  // Private calls.
  {
    rule: 'private call: the call is current and listed',
    given: [LOGIN, ['groupCall', 42]],
    when: ['privateCall', 9],
    sent: [{ type: 'call', uid: 9 }],
    state: { ...IDLE, cid: FIRST_CALL, monitor: [42], calls: [FIRST_CALL] },
  },
  {
    rule: 'end call on a private call hangs it up',
    given: [LOGIN, ['privateCall', 9]],
    when: ['endCall', FIRST_CALL],
    sent: [{ type: 'hangup', cid: FIRST_CALL }],
    state: IDLE,
  },
  {
    rule: 'callEnd of the current call clears the current one',
    given: [LOGIN, ['privateCall', 9]],
    when: ['push', { type: 'callEnd', cid: FIRST_CALL }],
    sent: [],
    events: [{ event: 'callEnd', cid: FIRST_CALL }],
    state: IDLE,
  },
  {
    rule: 'callEnd of the call the seat talks in stops the mic',
    given: [LOGIN, ['groupCall', 42], ['privateCall', 9], ['applyMic', FIRST_CALL]],
    when: ['push', { type: 'callEnd', cid: FIRST_CALL }],
    sent: [],
    events: [{ event: 'callEnd', cid: FIRST_CALL }],
    state: { ...IDLE, monitor: [42] },
  },
  {
    rule: 'callStart lists the call and leaves the current channel as it is',
    given: [LOGIN, ['groupCall', 42]],
    when: ['push', { type: 'callStart', cid: FIRST_CALL + 4, from: 9, name: 'Patrol 9' }],
    sent: [],
    events: [{ event: 'callStart', cid: FIRST_CALL + 4, from: 9, name: 'Patrol 9' }],
    state: { ...IDLE, cid: 42, monitor: [42], calls: [FIRST_CALL + 4] },
  },

  // Emergency calls (an SOS or ManDown): offered to the seat, answered by answerCall.
  {
    rule: 'an emergency callStart lists the call as an emergency and leaves the current channel as it is',
    given: [LOGIN, ['groupCall', 42]],
    when: OFFERED,
    sent: [],
    events: [{ event: 'callStart', cid: EMERGENCY, from: 9, name: 'Patrol 9', emergency: true }],
    state: { ...IDLE, cid: 42, monitor: [42], calls: [EMERGENCY], emergency: [EMERGENCY] },
  },
  {
    rule: 'answer call makes the offered emergency call current; the server needs no word',
    given: [LOGIN, ['groupCall', 42], OFFERED],
    when: ['answerCall', EMERGENCY],
    sent: [],
    state: { ...IDLE, cid: EMERGENCY, monitor: [42], calls: [EMERGENCY], emergency: [EMERGENCY] },
  },
  {
    rule: 'apply mic after answering talks in the emergency call',
    given: [LOGIN, ['groupCall', 42], OFFERED, ['answerCall', EMERGENCY]],
    when: ['applyMic', EMERGENCY],
    sent: [{ type: 'floorRequest', cid: EMERGENCY }],
    frames: [
      { cid: EMERGENCY, seq: 0 },
      { cid: EMERGENCY, seq: 1 },
    ],
    state: {
      ...IDLE,
      cid: EMERGENCY,
      monitor: [42],
      calls: [EMERGENCY],
      emergency: [EMERGENCY],
      talking: EMERGENCY,
      mic: true,
    },
  },
  {
    rule: 'answer call of an unknown cid: not_found, nothing sent, the current channel stays',
    given: [LOGIN, ['groupCall', 42], OFFERED],
    when: ['answerCall', EMERGENCY + 1],
    sent: [],
    error: 'not_found',
    state: { ...IDLE, cid: 42, monitor: [42], calls: [EMERGENCY], emergency: [EMERGENCY] },
  },
  {
    rule: 'answer call of a call that is not an emergency: bad_request, the current channel stays',
    given: [LOGIN, ['groupCall', 42], PLAIN],
    when: ['answerCall', FIRST_CALL + 4],
    sent: [],
    error: 'bad_request',
    state: { ...IDLE, cid: 42, monitor: [42], calls: [FIRST_CALL + 4], emergency: [] },
  },
  {
    rule: 'answer call of a channel: not_found',
    given: [LOGIN, ['groupCall', 42]],
    when: ['answerCall', 42],
    sent: [],
    error: 'not_found',
    state: { ...IDLE, cid: 42, monitor: [42] },
  },
  {
    rule: 'answer call before login: not_logged_in',
    given: [],
    when: ['answerCall', EMERGENCY],
    sent: [],
    error: 'not_logged_in',
    state: ENDED,
  },
  {
    rule: 'callEnd of the answered emergency call stops the mic and clears the current one',
    given: [LOGIN, OFFERED, ['answerCall', EMERGENCY], ['applyMic', EMERGENCY]],
    when: ['push', { type: 'callEnd', cid: EMERGENCY }],
    sent: [],
    events: [{ event: 'callEnd', cid: EMERGENCY }],
    state: IDLE,
  },
  {
    rule: 'end call on an answered emergency call hangs it up',
    given: [LOGIN, OFFERED, ['answerCall', EMERGENCY]],
    when: ['endCall', EMERGENCY],
    sent: [{ type: 'hangup', cid: EMERGENCY }],
    state: IDLE,
  },

  // The microphone and the floor.
  {
    rule: 'apply mic asks for the floor, then sends audio frames numbered from 0',
    given: [LOGIN, ['groupCall', 42]],
    when: ['applyMic', 42],
    sent: [{ type: 'floorRequest', cid: 42 }],
    frames: [
      { cid: 42, seq: 0 },
      { cid: 42, seq: 1 },
    ],
    state: { ...IDLE, cid: 42, monitor: [42], talking: 42, mic: true },
  },
  {
    rule: 'apply mic refused by the server: its code passes through, the mic stays off',
    given: [LOGIN, ['groupCall', BUSY_CID]],
    when: ['applyMic', BUSY_CID],
    sent: [{ type: 'floorRequest', cid: BUSY_CID }],
    error: 'busy',
    state: { ...IDLE, cid: BUSY_CID, monitor: [BUSY_CID] },
  },
  {
    rule: 'free mic stops the mic and releases the floor',
    given: [LOGIN, ['groupCall', 42], ['applyMic', 42]],
    when: ['freeMic', 42],
    sent: [{ type: 'floorRelease', cid: 42 }],
    state: { ...IDLE, cid: 42, monitor: [42] },
  },
  {
    rule: 'floorRevoked on the channel the seat talks in stops the mic',
    given: [LOGIN, ['groupCall', 42], ['applyMic', 42]],
    when: ['push', { type: 'floorRevoked', cid: 42, reason: 'preempted' }],
    sent: [],
    events: [{ event: 'floorRevoked', cid: 42, reason: 'preempted' }],
    state: { ...IDLE, cid: 42, monitor: [42] },
  },
  {
    rule: 'floorIdle on the channel the seat talks in stops the mic',
    given: [LOGIN, ['groupCall', 42], ['applyMic', 42]],
    when: ['push', { type: 'floorIdle', cid: 42 }],
    sent: [],
    events: [{ event: 'floorIdle', cid: 42 }],
    state: { ...IDLE, cid: 42, monitor: [42] },
  },
  {
    rule: 'floorRevoked on another channel leaves the mic on',
    given: [LOGIN, ['groupCall', 42], ['monitor', [43]], ['applyMic', 42]],
    when: ['push', { type: 'floorRevoked', cid: 43, reason: 'timeout' }],
    sent: [],
    events: [{ event: 'floorRevoked', cid: 43, reason: 'timeout' }],
    state: { ...IDLE, cid: 42, monitor: [42, 43], talking: 42, mic: true },
  },
  {
    rule: 'floorTaken is told as it came',
    given: [LOGIN, ['groupCall', 42]],
    when: ['push', { type: 'floorTaken', cid: 42, uid: 7, name: 'Patrol 7', priority: 3 }],
    sent: [],
    events: [{ event: 'floorTaken', cid: 42, uid: 7, name: 'Patrol 7', priority: 3 }],
    state: { ...IDLE, cid: 42, monitor: [42] },
  },

  // Video.
  {
    rule: 'videoOnline is told with the source nested under video',
    given: [LOGIN],
    when: ['push', { type: 'videoOnline', uid: 7, name: 'Gate', codecs: ['h264', 'jpeg'] }],
    sent: [],
    events: [{ event: 'videoOnline', video: { uid: 7, name: 'Gate', codecs: ['h264', 'jpeg'] } }],
    state: IDLE,
  },
  {
    rule: 'videoOffline is told as it came',
    given: [LOGIN],
    when: ['push', { type: 'videoOffline', uid: 7 }],
    sent: [],
    events: [{ event: 'videoOffline', uid: 7 }],
    state: IDLE,
  },
];
