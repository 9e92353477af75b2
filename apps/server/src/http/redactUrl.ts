/**
 * Query parameters whose values never reach a log line, by name: anything that names a token (the
 * hub's `access_token`, `refresh_token`), a ticket, a secret, a password (`psd`, `OldPassword`), a
 * signature (`sig`, `X-Amz-Signature`), an AuthCode or an API key. Kept on purpose: `code` (the
 * enterprise code of the login link, not a secret, and what support asks for first), `id` (a hub
 * connection id is useless without the caller's token; an OsmAnd device id is the tracker's name
 * that an operator needs to find why it does not report).
 */
const SECRET_NAME = /token|ticket|secret|passw|psd|pwd|credential|signature|^sig$|auth_?code|api_?key/i;

/** Path segments that are bearer credentials themselves: the play URL's ticket (`/api/Media/Play/{ticket}`). */
const SECRET_PATH = /(\/api\/Media\/Play\/)[^/?#\s"\\]+/gi;

/**
 * `?name=value` or `&name=value` anywhere in a text, so a URL inside a log message is caught too. A
 * value ends at a quote or a backslash as well: in a JSON line that is where the string or an escape
 * (`\"`, `\n`) begins, which must stay whole for the line to parse.
 */
const QUERY_PARAM = /([?&])([^=&#?\s"\\]+)=([^&#\s"\\]*)/g;

export const REDACTED = '[REDACTED]';

/** The URL (or a text holding one) with every secret query value and path ticket replaced. */
export function redactUrl(url: string): string {
  if (!url.includes('=') && !/\/Play\//i.test(url)) return url;
  return url.replace(SECRET_PATH, `$1${REDACTED}`).replace(QUERY_PARAM, (whole, sep: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A malformed escape: judge the name as written.
    }
    return SECRET_NAME.test(decoded) ? `${sep}${name}=${REDACTED}` : whole;
  });
}
