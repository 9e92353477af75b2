export const LOGIN_PATH = '/login';

/** Only same-origin paths may be a redirect target; anything else goes to the root. */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value === LOGIN_PATH || value.startsWith(`${LOGIN_PATH}?`) || value.startsWith(`${LOGIN_PATH}/`)) return '/';
  return value;
}

/** `/login?redirect=<path>`: where the guard sends a visitor without a token (SPEC.md section 2). */
export function loginPathFor(wanted: string): string {
  return wanted && wanted !== '/' ? `${LOGIN_PATH}?redirect=${encodeURIComponent(wanted)}` : LOGIN_PATH;
}
