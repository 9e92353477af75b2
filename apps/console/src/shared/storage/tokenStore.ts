import { StorageKeys } from '@intercom/contract';
import Cookies from 'js-cookie';

export interface SessionTokens {
  accessToken: string;
  refreshToken?: string | undefined;
}

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

export function setTokens(tokens: SessionTokens): void {
  Cookies.set(StorageKeys.accessToken, tokens.accessToken, cookieOptions());
  if (tokens.refreshToken) Cookies.set(StorageKeys.refreshToken, tokens.refreshToken, cookieOptions());
  else Cookies.remove(StorageKeys.refreshToken, { path: '/' });
}

export function clearTokens(): void {
  Cookies.remove(StorageKeys.accessToken, { path: '/' });
  Cookies.remove(StorageKeys.refreshToken, { path: '/' });
}
