/** Query parameters whose values never reach a log line. */
const SECRET_PARAMS = /([?&](?:psd|password|access_token|refresh_token|OldPassword|NewPassword)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[REDACTED]');
}
