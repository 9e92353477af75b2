import type { TalkServerMessage, TerminalErrorCode, TerminalServerMessage } from '@intercom/contract';
import type { Scope } from '../tenancy/scope.js';
import type { AudioOutbox } from './audioOutbox.js';
import type { Talker } from './floorMachine.js';

/** A dispatcher seat: a console account's audio connection (`{type:"login", authCode}`). */
export interface Seat {
  A_ID: number;
  E_ID: number;
  /** The console session whose voice the seat is: it closes when that session ends. */
  S_ID: number;
  dispatchNo: string;
  name: string;
  priority: number;
  /**
   * The enterprises whose channels it may join and whose users it may call, as last read from its
   * session: again before each join, call and video apply, and on every seat check (DispatcherSeats).
   */
  scope: Scope;
}

/** One connection that talks and listens: a terminal or a dispatcher seat (TerminalConnection). */
export interface TalkPeer {
  /** Who it is on a floor; `priority` here is a seat's, a terminal's comes from its membership. */
  readonly talker: Talker;
  readonly E_ID: number;
  /** A terminal user's id and phone (for GpsRecord.talking); null for a seat. */
  readonly user: { U_ID: number; E_ID: number; Phone: string; UserName: string } | null;
  readonly seat: Seat | null;
  readonly outbox: AudioOutbox;
  send(message: TerminalServerMessage): void;
  /** A floor or channel event, queued behind the audio this listener has not received yet. */
  notify(message: TalkServerMessage): void;
  ack(seq: number, result?: Record<string, unknown>): void;
  error(seq: number | null, code: TerminalErrorCode, message: string): void;
}
