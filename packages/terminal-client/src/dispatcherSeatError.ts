import { TalkAgentErrors } from '@intercom/contract';
import { TerminalRequestError } from './terminalSocket.js';

/**
 * A seat command that failed: `code` is a TalkAgentErrors code (`not_logged_in`, `bad_request`,
 * `server_unreachable`, `account_mismatch`, `no_microphone`) or the server's refusal passed through
 * (`busy`, `not_member`, `bad_auth_code`, ...). The talk agent turns it into its AgentError and the
 * console into its TalkError, both by `code`.
 */
export class SeatError extends Error {
  override readonly name = 'SeatError';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A failed request as a SeatError: the server's refusal keeps its code; no reply at all (timeout,
 * closed, not connected) is `server_unreachable`. Anything else is returned unchanged.
 */
export function seatErrorOf(error: unknown): unknown {
  if (!(error instanceof TerminalRequestError)) return error;
  return new SeatError(error.reply ? error.code : TalkAgentErrors.serverUnreachable, error.message);
}
