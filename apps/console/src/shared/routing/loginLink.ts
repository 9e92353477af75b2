/** Credentials of a login link `/login?user=..&psd=..&code=..` (SPEC.md section 2). */
export interface LoginLink {
  user: string;
  psd: string;
  code: string;
}

let pending: LoginLink | null = null;

/** Keeps the link's credentials in memory only, so the address bar can drop the password at once. */
export function holdLoginLink(link: LoginLink): void {
  pending = link;
}

/** Hands the held credentials over once. */
export function takeLoginLink(): LoginLink | null {
  const link = pending;
  pending = null;
  return link;
}
