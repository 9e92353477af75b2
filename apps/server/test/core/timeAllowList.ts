/**
 * Where server source (apps/server/src) may still read Date.now or set a timer of its own, and how
 * often (clockGuard.test.ts). Each entry is a rule not yet on AppDeps.clock, or I/O: a socket's or a
 * request's own timeout, a log line's time. Lower a number when a rule moves to the clock; never raise one.
 */
export const TIME_ALLOW_LIST: Readonly<Record<string, number>> = {
  'auth/loginCrypto.ts': 1,
  'auth/seedFirstRun.ts': 1,
  // endSession(s)' EndedAt stamps (a record's time); the idle and absolute limits read AppDeps.clock.
  'auth/sessions.ts': 2,
  'bus/alarmEpisodes.ts': 1,
  'bus/redisRateLimitStore.ts': 3,
  'core/writeSysLog.ts': 1,
  'db/historyPartitions.ts': 1,
  // The pause between SQLite's delete batches (load pacing, not a rule).
  'db/historyRetention.ts': 1,
  // close(): the shutdown's grace for clients to drain (I/O), on real time so a FakeClock app still closes.
  'hub/hubServer.ts': 3,
  // LiveState.setInterval(ref, interval) is a method (a user's report interval), not a timer.
  'live/liveState.ts': 1,
  'main.ts': 2,
  'modules/media/mediaRoutes.ts': 1,
  'modules/media/playTicket.ts': 2,
  'modules/organ/organTree.ts': 1,
  'modules/userinfo/simBinding.ts': 1,
  'modules/userinfo/userEntity.ts': 1,
  // The 25 ms hold that pairs a big room's frames into one socket write (write batching, I/O).
  'talk/audioFanOut.ts': 1,
  // The wait for another instance's answer to a call offer over Redis (a request's own timeout, I/O).
  'talk/remoteCalls.ts': 1,
  // The history group commit's flush delay and its retry pause after a failed write (database I/O).
  'terminals/historyWriter.ts': 2,
  // live.setInterval(user, interval) is LiveState's method (a user's report interval), not a timer.
  'terminals/terminalGateway.ts': 1,
};
