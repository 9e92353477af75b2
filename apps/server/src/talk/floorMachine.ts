import type { FloorRevokeReason } from '@intercom/contract';

/**
 * Floor control of one channel or call, after the floor control server's arbitration states of
 * 3GPP TS 24.380 (section 6.3.5): `idle` (G: Floor Idle), `taken` (G: Floor Taken) and
 * `pendingRevoke` (G: pending Floor Revoke: the holder was pre-empted and may finish for the
 * grace time while the higher-priority requester waits). Every transition is in `stepFloor`;
 * timers are the owner's `tick` events, so the machine is a pure function of its inputs.
 */
export interface Talker {
  /** `U<U_ID>` for a terminal, `D<A_ID>` for a dispatcher seat. */
  key: string;
  /** U_ID in audio frames and floor events; 0 for a dispatcher seat. */
  uid: number;
  name: string;
  /** 0-7, larger is higher. */
  priority: number;
}

/** A request waiting for its answer (the seq of its `floorRequest`). */
export interface FloorRequest {
  talker: Talker;
  seq: number;
}

export interface FloorLimits {
  maxTalkMs: number;
  silenceMs: number;
  revokeGraceMs: number;
}

export type FloorState =
  | { name: 'idle' }
  | { name: 'taken'; holder: Talker; grantedAt: number; lastAudioAt: number }
  | {
      name: 'pendingRevoke';
      holder: Talker;
      grantedAt: number;
      lastAudioAt: number;
      revokedAt: number;
      next: FloorRequest;
    };

export type FloorEvent =
  | { kind: 'request'; request: FloorRequest; now: number }
  /** floorRelease, leave, disconnect or freeze of `key`. */
  | { kind: 'release'; key: string; now: number }
  | { kind: 'audio'; key: string; now: number }
  | { kind: 'flood'; key: string; now: number }
  | { kind: 'tick'; now: number };

export type FloorEffect =
  /** Ack `{granted:true}` to the request; unless `again`, push floorTaken and start the burst. */
  | { kind: 'granted'; request: FloorRequest; again?: boolean }
  | { kind: 'busy'; request: FloorRequest }
  | { kind: 'revoked'; talker: Talker; reason: FloorRevokeReason }
  /** The talker's burst is over (talking false, recording closed). */
  | { kind: 'ended'; talker: Talker }
  | { kind: 'idle' };

export interface FloorStep {
  state: FloorState;
  effects: FloorEffect[];
}

export const IDLE: FloorState = { name: 'idle' };

const stay = (state: FloorState): FloorStep => ({ state, effects: [] });

function grant(request: FloorRequest, now: number): FloorState {
  return { name: 'taken', holder: request.talker, grantedAt: now, lastAudioAt: now };
}

/** Ends the holder's burst with a revoke: the floor goes idle. */
function revokeToIdle(holder: Talker, reason: FloorRevokeReason): FloorStep {
  return {
    state: IDLE,
    effects: [{ kind: 'revoked', talker: holder, reason }, { kind: 'ended', talker: holder }, { kind: 'idle' }],
  };
}

/** The pre-empted holder is gone: the waiting requester gets the floor. */
function handOver(holder: Talker, next: FloorRequest, now: number): FloorStep {
  return {
    state: grant(next, now),
    effects: [
      { kind: 'ended', talker: holder },
      { kind: 'granted', request: next },
    ],
  };
}

function fromIdle(event: FloorEvent): FloorStep {
  if (event.kind !== 'request') return stay(IDLE);
  return { state: grant(event.request, event.now), effects: [{ kind: 'granted', request: event.request }] };
}

function fromTaken(state: Extract<FloorState, { name: 'taken' }>, event: FloorEvent, limits: FloorLimits): FloorStep {
  const { holder } = state;
  switch (event.kind) {
    case 'request': {
      const { request } = event;
      if (request.talker.key === holder.key) return { state, effects: [{ kind: 'granted', request, again: true }] };
      if (request.talker.priority <= holder.priority) return { state, effects: [{ kind: 'busy', request }] };
      return {
        state: { ...state, name: 'pendingRevoke', revokedAt: event.now, next: request },
        effects: [{ kind: 'revoked', talker: holder, reason: 'preempted' }],
      };
    }
    case 'release':
      if (event.key !== holder.key) return stay(state);
      return { state: IDLE, effects: [{ kind: 'ended', talker: holder }, { kind: 'idle' }] };
    case 'audio':
      if (event.key !== holder.key) return stay(state);
      return stay({ ...state, lastAudioAt: event.now });
    case 'flood':
      return event.key === holder.key ? revokeToIdle(holder, 'flooding') : stay(state);
    case 'tick':
      if (event.now - state.grantedAt >= limits.maxTalkMs) return revokeToIdle(holder, 'timeout');
      if (event.now - state.lastAudioAt >= limits.silenceMs) return revokeToIdle(holder, 'silence');
      return stay(state);
  }
}

function fromPendingRevoke(
  state: Extract<FloorState, { name: 'pendingRevoke' }>,
  event: FloorEvent,
  limits: FloorLimits,
): FloorStep {
  const { holder, next } = state;
  switch (event.kind) {
    case 'request': {
      const { request } = event;
      const key = request.talker.key;
      if (key === holder.key || key === next.talker.key || request.talker.priority <= next.talker.priority) {
        return { state, effects: [{ kind: 'busy', request }] };
      }
      return { state: { ...state, next: request }, effects: [{ kind: 'busy', request: next }] };
    }
    case 'release':
      if (event.key === holder.key) return handOver(holder, next, event.now);
      if (event.key !== next.talker.key) return stay(state);
      // The waiting requester gave up: its request is refused and the revoked holder's burst ends.
      return {
        state: IDLE,
        effects: [{ kind: 'busy', request: next }, { kind: 'ended', talker: holder }, { kind: 'idle' }],
      };
    case 'audio':
      return event.key === holder.key ? stay({ ...state, lastAudioAt: event.now }) : stay(state);
    case 'flood':
      return event.key === holder.key ? handOver(holder, next, event.now) : stay(state);
    case 'tick':
      return event.now - state.revokedAt >= limits.revokeGraceMs ? handOver(holder, next, event.now) : stay(state);
  }
}

/** The one transition function of the floor. */
export function stepFloor(state: FloorState, event: FloorEvent, limits: FloorLimits): FloorStep {
  switch (state.name) {
    case 'idle':
      return fromIdle(event);
    case 'taken':
      return fromTaken(state, event, limits);
    case 'pendingRevoke':
      return fromPendingRevoke(state, event, limits);
  }
}

/** Whether `key` may send audio now: the holder, including a pre-empted one finishing its grace time. */
export function holds(state: FloorState, key: string): boolean {
  return state.name !== 'idle' && state.holder.key === key;
}
