import { StorageKeys } from '@intercom/contract';
import Cookies from 'js-cookie';

export interface SessionTokens {
  accessToken: string;
  refreshToken?: string | undefined;
  /** Seconds the access token lives without a request (the server's idle timeout). */
  expiresIn?: number | undefined;
}

/**
 * When this tab expects the access token to expire if nothing else is sent: the server's idle timeout
 * counted from this tab's last answered request. Memory only: after a reload the console renews on a
 * 50014 answer instead of ahead of it.
 */
let lifetimeMs: number | undefined;
let expiresAt: number | undefined;

function cookieOptions(): Cookies.CookieAttributes {
  return { path: '/', sameSite: 'strict', secure: window.location.protocol === 'https:' };
}

/** The bearer token of this browser, kept in the cookie SPEC.md section 9 names. */
export function getAccessToken(): string | undefined {
  return Cookies.get(StorageKeys.accessToken) || undefined;
}

export function hasAccessToken(): boolean {
  return getAccessToken() !== undefined;
}

export function getRefreshToken(): string | undefined {
  return Cookies.get(StorageKeys.refreshToken) || undefined;
}

export function setTokens(tokens: SessionTokens): void {
  lifetimeMs = tokens.expiresIn && tokens.expiresIn > 0 ? tokens.expiresIn * 1000 : undefined;
  expiresAt = lifetimeMs === undefined ? undefined : Date.now() + lifetimeMs;
  Cookies.set(StorageKeys.accessToken, tokens.accessToken, cookieOptions());
  if (tokens.refreshToken) Cookies.set(StorageKeys.refreshToken, tokens.refreshToken, cookieOptions());
  else Cookies.remove(StorageKeys.refreshToken, { path: '/' });
}

/** The server answered a request with the token: its idle clock started again. */
export function noteTokenUsed(now = Date.now()): void {
  if (lifetimeMs !== undefined) expiresAt = now + lifetimeMs;
}

/** Whether the access token expires within `marginMs` (false when its lifetime is unknown). */
export function tokenExpiresWithin(marginMs: number, now = Date.now()): boolean {
  return expiresAt !== undefined && expiresAt - now < marginMs;
}

export function clearTokens(): void {
  lifetimeMs = undefined;
  expiresAt = undefined;
  Cookies.remove(StorageKeys.accessToken, { path: '/' });
  Cookies.remove(StorageKeys.refreshToken, { path: '/' });
}
