import type { LoginPayload, PublicKey } from '@intercom/contract';

/** The two encrypted fields of `POST /api/UAuth/Login` (DESIGN.md section 4). */
export interface SealedLogin {
  appSecret: string;
  data: string;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `time` of the payload: epoch ms with the `_admin` suffix the server expects. */
export function loginPayload(username: string, password: string, code: string, now = Date.now()): LoginPayload {
  return { username, password, code, time: `${now}_admin` };
}

/**
 * Seals with WebCrypto: a fresh 32-byte AES key wrapped by RSA-OAEP-SHA256, and the JSON payload
 * as iv(12) || AES-256-GCM ciphertext+tag.
 */
export async function sealWithWebCrypto(
  subtle: SubtleCrypto,
  key: PublicKey,
  payload: LoginPayload,
): Promise<SealedLogin> {
  const rsa = await subtle.importKey('spki', base64ToBytes(key.spki), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
    'encrypt',
  ]);
  const rawKey = crypto.getRandomValues(new Uint8Array(32));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const aes = await subtle.importKey('raw', rawKey, { name: 'AES-GCM' }, false, ['encrypt']);
  const wrapped = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, rsa, rawKey));
  const plain = new TextEncoder().encode(JSON.stringify(payload));
  const sealed = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv, tagLength: 128 }, aes, plain));
  const data = new Uint8Array(iv.length + sealed.length);
  data.set(iv);
  data.set(sealed, iv.length);
  return { appSecret: bytesToBase64(wrapped), data: bytesToBase64(data) };
}

/**
 * WebCrypto where the browser offers it; on plain HTTP to a LAN address `crypto.subtle` is absent,
 * so node-forge (loaded only then) does the same work.
 */
export async function sealLogin(key: PublicKey, payload: LoginPayload): Promise<SealedLogin> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) return sealWithWebCrypto(subtle, key, payload);
  const { sealWithForge } = await import('./sealWithForge');
  return sealWithForge(key, payload);
}
