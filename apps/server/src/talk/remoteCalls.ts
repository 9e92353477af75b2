import { TalkErrors } from '@intercom/contract';
import { inScope, type Scope } from '../tenancy/scope.js';
import type { PrivateCallSignal, SharedFloors } from './sharedFloors.js';
import type { TalkPeer } from './talkPeer.js';
import type { TalkRoom } from './talkRoom.js';

/** The caller's enterprise settings a call's floor and recording follow. */
export interface CallSettings {
  maxTalkMs: number;
  recordEnable: boolean;
}

/** What RemoteCalls needs of the talk service of its instance. */
export interface CallHost {
  /** The terminal of `uid` connected to this instance. */
  user(uid: number): TalkPeer | undefined;
  connected(peer: TalkPeer): boolean;
  room(cid: number): TalkRoom | undefined;
  openCall(cid: number, E_ID: number, settings: CallSettings, parties: [TalkPeer, number][]): TalkRoom;
  /** Ends a call here because the other side ended it. */
  endCall(room: TalkRoom): void;
  /** A call placed from here was answered (metrics). */
  started(): void;
}

/** Whether a caller reaches a callee: a seat within its scope, a terminal within its enterprise. */
export function reaches(seatScope: Scope | null, callerE_ID: number, calleeE_ID: number): boolean {
  return seatScope ? inScope(seatScope, calleeE_ID) : calleeE_ID === callerE_ID;
}

/**
 * Private calls between instances (REDIS_URL). The caller's instance offers the call on the talk
 * channel; only the instance the callee is connected to answers (after the same scope check a
 * local call gets) and tells the callee `callStart`. No answer within `answerMs` means the user is
 * connected nowhere: `unavailable`. Each side keeps a room with its own party; the floor is shared.
 */
export class RemoteCalls {
  /** Offers waiting for the callee's instance to answer. */
  private readonly answers = new Map<number, (ok: boolean) => void>();

  constructor(
    private readonly floors: SharedFloors,
    private readonly answerMs: number,
    private readonly host: CallHost,
  ) {}

  async offer(peer: TalkPeer, uid: number, seq: number, settings: CallSettings): Promise<void> {
    const cid = await this.floors.nextCallId();
    const answer = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.answerMs);
      this.answers.set(cid, (ok) => {
        clearTimeout(timer);
        resolve(ok);
      });
    });
    const from = { ...peer.talker, priority: peer.seat?.priority ?? 0 };
    const { maxTalkMs, recordEnable: record } = settings;
    const scope = peer.seat?.scope ?? null;
    this.floors.publishCall({ kind: 'offer', cid, uid, from, E_ID: peer.E_ID, scope, record, maxTalkMs });
    const accepted = await answer;
    this.answers.delete(cid);
    if (!accepted || !this.host.connected(peer)) {
      this.floors.publishCall({ kind: 'end', cid });
      return peer.error(seq, TalkErrors.unavailable, 'that user is not reachable');
    }
    const room = this.host.openCall(cid, peer.E_ID, settings, [[peer, from.priority]]);
    room.shared = true;
    room.remoteParty = { key: `U${uid}`, uid, name: '', priority: 0 };
    peer.ack(seq, { cid });
    this.host.started();
  }

  /** A call signal from another instance: an offer to a user connected here, its answer, or its end. */
  receive(signal: PrivateCallSignal): void {
    if (signal.kind === 'answer') return this.answers.get(signal.cid)?.(signal.ok);
    const room = this.host.room(signal.cid);
    if (signal.kind === 'end') {
      if (room?.kind === 'private' && room.shared) this.host.endCall(room);
      return;
    }
    const callee = this.host.user(signal.uid);
    if (!callee || room) return;
    const ok = reaches(signal.scope, signal.E_ID, callee.E_ID) && this.host.connected(callee);
    this.floors.publishCall({ kind: 'answer', cid: signal.cid, ok });
    if (!ok) return;
    const settings = { maxTalkMs: signal.maxTalkMs, recordEnable: signal.record };
    const call = this.host.openCall(signal.cid, signal.E_ID, settings, [[callee, 0]]);
    call.shared = true;
    call.remoteParty = signal.from;
    callee.send({ type: 'callStart', cid: signal.cid, from: signal.from.uid, name: signal.from.name });
  }
}
