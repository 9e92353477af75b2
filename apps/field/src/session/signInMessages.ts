import { TerminalClientErrors, TerminalRequestError } from '@intercom/terminal-client';

/** The translation key (namespace `field`) that tells the worker why a sign-in failed. */
export function signInErrorKey(error: unknown): string {
  if (!(error instanceof TerminalRequestError)) return 'signIn.error.network';
  switch (error.code) {
    case 'bad_credentials':
      return 'signIn.error.badCredentials';
    case 'too_many_attempts':
      return 'signIn.error.locked';
    case 'login_rate_limited':
      return 'signIn.error.rateLimited';
    case 'frozen':
      return 'signIn.error.frozen';
    case 'expired':
      return 'signIn.error.expired';
    case 'enterprise_disabled':
      return 'signIn.error.enterpriseDisabled';
    case 'invalid':
      return 'signIn.error.invalid';
    case TerminalClientErrors.timeout:
    case TerminalClientErrors.closed:
    case TerminalClientErrors.notConnected:
      return 'signIn.error.network';
    default:
      return 'signIn.error.other';
  }
}

/** The translation key that says why the server ended the session (`closing` reason, close code). */
export function closedReasonKey(code: number, reason: string): string {
  if (code === 4001 || reason === 'replaced') return 'signIn.closed.replaced';
  switch (reason) {
    case 'frozen':
      return 'signIn.closed.frozen';
    case 'deleted':
      return 'signIn.closed.deleted';
    case 'password':
      return 'signIn.closed.password';
    default:
      return 'signIn.closed.other';
  }
}
