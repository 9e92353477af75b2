import { constants, createDecipheriv, createHash, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { Code, Limits, MessageKeys, loginPayloadSchema, type LoginPayload, type PublicKey } from '@intercom/contract';
import type { Kysely } from 'kysely';
import { AppError } from '../http/AppError.js';
import type { DB } from '../db/schema.js';

export interface LoginKey {
  keyId: string;
  privatePem: string;
  spki: string;
}

/**
 * The RSA key of the login envelope. It lives in the database so every server instance behind a
 * load balancer decrypts what any of them handed out.
 */
export async function loadOrCreateLoginKey(db: Kysely<DB>): Promise<LoginKey> {
  const existing = await db.selectFrom('server_key').selectAll().orderBy('CreatedAt', 'desc').executeTakeFirst();
  if (existing) return { keyId: existing.K_ID, privatePem: existing.PrivatePem, spki: existing.Spki };
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const keyId = createHash('sha256').update(spki).digest('hex').slice(0, 16);
  await db
    .insertInto('server_key')
    .values({ K_ID: keyId, PrivatePem: privatePem, Spki: spki, CreatedAt: Date.now() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  // Another instance may have won the race: use whatever is stored now.
  const stored = await db.selectFrom('server_key').selectAll().orderBy('CreatedAt', 'desc').executeTakeFirstOrThrow();
  return { keyId: stored.K_ID, privatePem: stored.PrivatePem, spki: stored.Spki };
}

export function publicKeyOf(key: LoginKey): PublicKey {
  return { keyId: key.keyId, alg: 'RSA-OAEP-256', spki: key.spki };
}

const badEnvelope = () => new AppError(Code.Validation, MessageKeys.loginBadEnvelope);

function strictBase64(value: string): Buffer {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) throw badEnvelope();
  return Buffer.from(value, 'base64');
}

/** Decrypts `appSecret` (RSA-OAEP-SHA256 AES key) and `data` (iv || AES-256-GCM ciphertext+tag). */
export function openLoginEnvelope(key: LoginKey, appSecret: string, data: string): LoginPayload {
  const wrappedKey = strictBase64(appSecret);
  const sealed = strictBase64(data);
  let aesKey: Buffer;
  try {
    aesKey = privateDecrypt(
      { key: key.privatePem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      wrappedKey,
    );
  } catch {
    throw new AppError(Code.Validation, MessageKeys.loginUnknownKey);
  }
  if (aesKey.length !== 32 || sealed.length < 12 + 16 + 2) throw badEnvelope();
  const iv = sealed.subarray(0, 12);
  const tag = sealed.subarray(sealed.length - 16);
  const ciphertext = sealed.subarray(12, sealed.length - 16);
  let plain: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey, iv);
    decipher.setAuthTag(tag);
    plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw badEnvelope();
  }
  let json: unknown;
  try {
    json = JSON.parse(plain);
  } catch {
    throw badEnvelope();
  }
  const parsed = loginPayloadSchema.safeParse(json);
  if (!parsed.success) throw badEnvelope();
  return parsed.data;
}

/** Rejects a `time` more than 5 minutes from the server's clock. */
export function checkLoginClock(payload: LoginPayload, now: number): void {
  const sent = Number(payload.time.replace(/_admin$/, ''));
  if (!Number.isFinite(sent) || Math.abs(now - sent) > Limits.loginClockSkewMs) {
    throw new AppError(Code.Validation, MessageKeys.loginClockSkew);
  }
}

/**
 * Records the envelope so it is accepted once. A replay inside the clock window hits the primary
 * key; outside the window the clock check already refuses it, so old nonces can be purged.
 */
export async function consumeNonce(db: Kysely<DB>, appSecret: string, data: string, now: number): Promise<void> {
  const hash = createHash('sha256').update(appSecret).update('.').update(data).digest('hex');
  const inserted = await db
    .insertInto('login_nonce')
    .values({ Hash: hash, CreatedAt: now })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    throw new AppError(Code.Validation, MessageKeys.loginReplay);
  }
  await db
    .deleteFrom('login_nonce')
    .where('CreatedAt', '<', now - 2 * Limits.loginClockSkewMs)
    .execute();
}
