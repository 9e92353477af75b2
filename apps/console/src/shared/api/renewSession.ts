import { Code, Limits } from '@intercom/contract';
import { getRefreshToken, setTokens, tokenExpiresWithin } from '../storage/tokenStore';

/** Renew this long before the access token would expire. */
export const RENEW_MARGIN_MS = 60_000;

let renewing: Promise<boolean> | null = null;

async function exchange(refreshToken: string): Promise<boolean> {
  try {
    const response = await fetch('/api/UAuth/Refresh', {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
      signal: AbortSignal.timeout(Limits.requestTimeoutMs),
    });
    const body = (await response.json()) as {
      Code?: unknown;
      access_token?: unknown;
      refresh_token?: unknown;
      expires_in?: unknown;
    };
    if (body.Code !== Code.Success || typeof body.access_token !== 'string' || !body.access_token) return false;
    // Another tab may have logged out (or in as someone else) meanwhile: then keep what it left.
    if (getRefreshToken() !== refreshToken) return false;
    setTokens({
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
      expiresIn: typeof body.expires_in === 'number' ? body.expires_in : undefined,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * SPEC.md 9, "Refresh token cookie": trades the refresh token for new tokens through
 * `POST /api/UAuth/Refresh`. Requests that need it at the same time share one exchange (the server
 * rotates both tokens, so a second exchange with the same refresh token would fail). Resolves false
 * when there is no refresh token or the server refuses it: the session is over (an idle or absolute
 * timeout, a logout, another login) and the re-login dialog applies. Never runs on a timer, so an
 * idle tab cannot keep its session alive.
 */
export function renewSession(): Promise<boolean> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) return Promise.resolve(false);
  renewing ??= exchange(refreshToken).finally(() => {
    renewing = null;
  });
  return renewing;
}

/**
 * Before a request: renews first when the access token is about to expire. Resolves whether it tried
 * and failed (then a 50014 answer to that request is final), else undefined.
 */
export async function renewIfDue(): Promise<boolean | undefined> {
  return tokenExpiresWithin(RENEW_MARGIN_MS) ? renewSession() : undefined;
}
