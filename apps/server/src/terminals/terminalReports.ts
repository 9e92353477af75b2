import { TerminalErrors, type TerminalClientMessage, type TerminalErrorCode } from '@intercom/contract';
import type { IngestResult, ReportingUser, TerminalService } from './terminalService.js';

/** The messages of a logged-in terminal user that report something: fixes, status, alarms, check-ins. */
export type ReportMessage = Extract<
  TerminalClientMessage,
  { type: 'position' | 'positions' | 'status' | 'heartRate' | 'sos' | 'manDown' | 'checkIn' }
>;

/** Where the answers go (a TerminalConnection). */
export interface ReportReplies {
  ack(seq: number, result?: Record<string, unknown>): void;
  error(seq: number | null, code: TerminalErrorCode, message: string, field?: string, retryAfterMs?: number): void;
}

const STORE_AGAIN = 'the alarm could not be stored; send it again';

/** Handles one report and answers it with an `ack` or an `error` carrying its seq. */
export function handleReport(
  replies: ReportReplies,
  service: TerminalService,
  user: ReportingUser,
  message: ReportMessage,
  now: number,
): void {
  const { seq } = message;
  switch (message.type) {
    case 'position': {
      const { seq: _seq, type: _type, ...fix } = message;
      return ingested(replies, seq, service.recordFixes(user, [fix]));
    }
    case 'positions':
      return ingested(replies, seq, service.recordFixes(user, message.fixes), { stored: message.fixes.length });
    case 'status':
      service.recordStatus(user, message);
      return replies.ack(seq);
    case 'heartRate':
      return ingested(replies, seq, service.recordHeartRate(user, message.value, message.time ?? now));
    case 'sos':
      return alarmed(replies, seq, service.sos(user, message.text, positionOf(message)));
    case 'manDown':
      return alarmed(replies, seq, service.manDown(user, positionOf(message)));
    case 'checkIn':
      service.safety.checkIn(user).then(
        (nextDueAt) => replies.ack(seq, { nextDueAt }),
        () => replies.error(seq, TerminalErrors.internal, 'the check-in could not be stored; send it again'),
      );
      return;
  }
}

/** A position only when both coordinates came. */
function positionOf(message: { lat?: number; lon?: number }) {
  return message.lat !== undefined && message.lon !== undefined ? { lat: message.lat, lon: message.lon } : undefined;
}

/** Acknowledges with the alarm's N_ID once it is stored. */
function alarmed(replies: ReportReplies, seq: number, stored: Promise<{ N_ID: number }>): void {
  stored.then(
    (alarm) => replies.ack(seq, { N_ID: alarm.N_ID }),
    () => replies.error(seq, TerminalErrors.internal, STORE_AGAIN),
  );
}

/** Acknowledges once the rows are committed (an ack means stored), or says why not. */
function ingested(
  replies: ReportReplies,
  seq: number,
  stored: Promise<IngestResult>,
  extra: Record<string, unknown> = {},
): void {
  void stored.then((result) => {
    if (result === 'ok') return replies.ack(seq, extra);
    if (result === 'busy') return replies.error(seq, TerminalErrors.busy, 'not stored; send it again', undefined, 1000);
    if (result === 'failed') return replies.error(seq, TerminalErrors.internal, 'not stored; send it again');
    replies.error(seq, TerminalErrors.shuttingDown, 'not stored; the server is restarting');
  });
}
