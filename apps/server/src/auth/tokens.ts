import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token (URL-safe) and the hash we store in its place. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
