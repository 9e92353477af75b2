import { TalkAgentErrors, TalkErrors } from '@intercom/contract';
import { TalkError, type TalkStatus } from './talkTypes';

/** A refused command's code -> the SPEC.md 8 text that says it (anything else: "command sent failed"). */
const BY_CODE: Record<string, TalkStatus> = {
  [TalkAgentErrors.notLoggedIn]: { key: 'not_logged_in', level: 'warning' },
  [TalkAgentErrors.serverUnreachable]: { key: 'not_connected', level: 'warning' },
  [TalkAgentErrors.accountMismatch]: { key: 'no_talk_account', level: 'error' },
  [TalkAgentErrors.noMicrophone]: { key: 'no_microphone', level: 'error' },
  [TalkErrors.badAuthCode]: { key: 'chat_account_failed', level: 'error' },
  [TalkErrors.busy]: { key: 'floor_busy', level: 'warning' },
  NotAllowedError: { key: 'no_microphone', level: 'error' },
  NotFoundError: { key: 'no_microphone', level: 'error' },
};

export function talkStatusOf(error: unknown): TalkStatus {
  if (error instanceof TalkError) return BY_CODE[error.code] ?? { key: 'command_failed', level: 'error' };
  if (error instanceof DOMException) return BY_CODE[error.name] ?? { key: 'command_failed', level: 'error' };
  return { key: 'command_failed', level: 'error' };
}
