import type { OwnFloor, TalkEffect, TalkEvent, TalkState } from './talkTypes';

/**
 * The field worker's talk rules as one pure step (the floor participant of 3GPP TS 24.380 plus the
 * calls): `talkStep(state, event)` returns the next state and what to do. FieldTalk.ts runs the
 * effects (socket, microphone, ring); talkMachine.test.ts walks every transition as a table.
 */
export interface TalkStep {
  state: TalkState;
  effects: TalkEffect[];
}

const NO_FLOOR: OwnFloor = { phase: 'noPermission', cid: 0, since: 0, releaseWanted: false };

export const initialTalkState: TalkState = { channel: null, call: null, own: NO_FLOOR, talkers: {}, notice: null };

/** Where the button talks: the open call, else the current channel. */
export function talkTarget(state: TalkState): number | null {
  return state.call?.phase === 'active' ? state.call.cid : state.channel;
}

/** Whether audio of `cid` is played: the current channel, and the call once it is open. */
export function hears(state: TalkState, cid: number): boolean {
  return cid === state.channel || (state.call?.phase === 'active' && state.call.cid === cid);
}

export function talkStep(state: TalkState, event: TalkEvent): TalkStep {
  switch (event.type) {
    case 'press':
      return press(state, event.at);
    case 'release':
      return release(state);
    case 'granted':
      return granted(state, event.cid, event.at);
    case 'refused':
      if (state.own.phase !== 'pendingRequest' || state.own.cid !== event.cid) return same(state);
      return next({ ...state, own: NO_FLOOR, notice: { kind: 'denied', reason: event.reason } });
    case 'released':
      return state.own.phase === 'pendingRelease' ? next({ ...state, own: NO_FLOOR }) : same(state);
    case 'micFailed':
      return micFailed(state);
    case 'floorTaken':
      return next({ ...state, talkers: { ...state.talkers, [event.cid]: { uid: event.uid, name: event.name } } });
    case 'floorIdle':
      return next({ ...state, talkers: without(state.talkers, event.cid) });
    case 'floorRevoked':
      if (state.own.phase !== 'hasPermission' || state.own.cid !== event.cid) return same(state);
      return next({ ...state, own: NO_FLOOR, notice: { kind: 'revoked', reason: event.reason } }, [
        { type: 'stopSending', cid: event.cid, release: false },
      ]);
    case 'channel':
      return channel(state, event.cid);
    case 'callStart':
      return callStart(state, event);
    case 'callEnd':
      return state.call?.cid === event.cid ? endCall(state, []) : same(state);
    case 'answer':
      if (state.call?.phase !== 'ringing') return same(state);
      return next({ ...state, call: { ...state.call, phase: 'active' } }, [{ type: 'ring', on: false }]);
    case 'hangup':
      // The microphone stops before the call's end goes out.
      return state.call ? endCall(state, [], { type: 'hangup', cid: state.call.cid }) : same(state);
    case 'disconnected':
      return disconnected(state);
  }
}

function next(state: TalkState, effects: TalkEffect[] = []): TalkStep {
  return { state, effects };
}

function same(state: TalkState): TalkStep {
  return { state, effects: [] };
}

function without(talkers: TalkState['talkers'], cid: number): TalkState['talkers'] {
  if (!(cid in talkers)) return talkers;
  const rest = { ...talkers };
  delete rest[cid];
  return rest;
}

function press(state: TalkState, at: number): TalkStep {
  // A press while the last talk is still draining, or already talking, changes nothing.
  if (state.own.phase !== 'noPermission') return same(state);
  const cid = talkTarget(state);
  if (cid === null) return next({ ...state, notice: { kind: 'denied', reason: 'no_channel' } });
  const own: OwnFloor = { phase: 'pendingRequest', cid, since: at, releaseWanted: false };
  return next({ ...state, own, notice: null }, [{ type: 'requestFloor', cid }]);
}

function release(state: TalkState): TalkStep {
  const { own } = state;
  if (own.phase === 'pendingRequest') return next({ ...state, own: { ...own, releaseWanted: true } });
  if (own.phase !== 'hasPermission') return same(state);
  return next({ ...state, own: { ...own, phase: 'pendingRelease' } }, [
    { type: 'stopSending', cid: own.cid, release: true },
  ]);
}

function granted(state: TalkState, cid: number, at: number): TalkStep {
  const { own } = state;
  if (own.phase !== 'pendingRequest' || own.cid !== cid) return same(state);
  if (own.releaseWanted) {
    // Let go before the answer: nothing to send, the floor goes back at once.
    return next({ ...state, own: { ...own, phase: 'pendingRelease' } }, [{ type: 'stopSending', cid, release: true }]);
  }
  return next({ ...state, own: { ...own, phase: 'hasPermission', since: at } }, [{ type: 'startSending', cid }]);
}

function micFailed(state: TalkState): TalkStep {
  const { own } = state;
  const notice = { kind: 'denied', reason: 'no_mic' } as const;
  if (own.phase === 'pendingRequest') return next({ ...state, own: { ...own, releaseWanted: true }, notice });
  if (own.phase !== 'hasPermission') return next({ ...state, notice });
  return next({ ...state, own: { ...own, phase: 'pendingRelease' }, notice }, [
    { type: 'stopSending', cid: own.cid, release: true },
  ]);
}

/** Drops the own floor of `cid` without a release (the server already let it go: moved, call over). */
function dropFloor(state: TalkState, cid: number, effects: TalkEffect[]): OwnFloor {
  const { own } = state;
  if (own.cid !== cid || (own.phase !== 'hasPermission' && own.phase !== 'pendingRequest')) return own;
  if (own.phase === 'hasPermission') effects.push({ type: 'stopSending', cid, release: false });
  return NO_FLOOR;
}

function channel(state: TalkState, cid: number | null): TalkStep {
  if (cid === state.channel) return same(state);
  const effects: TalkEffect[] = [];
  const old = state.channel;
  const own = old === null ? state.own : dropFloor(state, old, effects);
  const talkers = old === null ? state.talkers : without(state.talkers, old);
  return next({ ...state, channel: cid, own, talkers, notice: null }, effects);
}

function callStart(state: TalkState, event: Extract<TalkEvent, { type: 'callStart' }>): TalkStep {
  const { cid, from, name, emergency } = event;
  if (state.call?.cid === cid) return same(state);
  // One call at a time: a dispatcher's call while another is open is turned down; the emergency
  // call the worker's SOS opened ends whatever call was there.
  if (state.call && !emergency) return next(state, [{ type: 'hangup', cid }]);
  const effects: TalkEffect[] = [];
  const current = state.call ? endCall(state, effects).state : state;
  if (state.call) effects.push({ type: 'hangup', cid: state.call.cid });
  if (!emergency) effects.push({ type: 'ring', on: true });
  // A talk under way in the channel goes on until the button is let go; the next press talks in the call.
  const call = { cid, from, name, emergency, phase: emergency ? 'active' : 'ringing' } as const;
  return next({ ...current, call }, effects);
}

function endCall(state: TalkState, effects: TalkEffect[], last?: TalkEffect): TalkStep {
  const call = state.call!;
  if (call.phase === 'ringing') effects.push({ type: 'ring', on: false });
  const own = dropFloor(state, call.cid, effects);
  if (last) effects.push(last);
  return next({ ...state, call: null, own, talkers: without(state.talkers, call.cid) }, effects);
}

function disconnected(state: TalkState): TalkStep {
  const effects: TalkEffect[] = [];
  if (state.own.phase === 'hasPermission') effects.push({ type: 'stopSending', cid: state.own.cid, release: false });
  if (state.call?.phase === 'ringing') effects.push({ type: 'ring', on: false });
  return next({ ...state, call: null, own: NO_FLOOR, talkers: {}, notice: null }, effects);
}
