// What bench/support/fleetWorker.ts is told and what it counts (bench/fleet.ts).

export interface FleetWorkerOptions {
  url: string;
  first: number;
  count: number;
  channelSize: number;
  cids: number[];
  positionMs: number;
  statusMs: number;
  talkMs: number;
  talkBurstMs: number;
  /** First logins in flight at once in this worker (a fleet that powers on gradually). */
  loginConcurrency: number;
}

export interface FleetCounters {
  online: number;
  logins: number;
  /** Logins the resume token let in (the ack carries no new token). */
  resumed: number;
  joined: number;
  /** Epoch ms of the newest login ack. */
  lastLoginAt: number;
  positionsSent: number;
  positionsAcked: number;
  positionsFailed: number;
  statusAcked: number;
  bursts: number;
  framesSent: number;
  framesReceived: number;
  errors: Record<string, number>;
}

/** Counters at zero. */
export function emptyCounters(): FleetCounters {
  return {
    online: 0,
    logins: 0,
    resumed: 0,
    joined: 0,
    lastLoginAt: 0,
    positionsSent: 0,
    positionsAcked: 0,
    positionsFailed: 0,
    statusAcked: 0,
    bursts: 0,
    framesSent: 0,
    framesReceived: 0,
    errors: {},
  };
}
