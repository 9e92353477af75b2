import { constants, createDecipheriv, generateKeyPairSync, privateDecrypt, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loginPayload, sealWithWebCrypto } from './sealLogin';
import { sealWithForge } from './sealWithForge';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = {
  keyId: 'test',
  alg: 'RSA-OAEP-256' as const,
  spki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
};

/** What the server does with the envelope (apps/server/src/auth/loginCrypto.ts). */
function open(appSecret: string, data: string): unknown {
  const aesKey = privateDecrypt(
    { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(appSecret, 'base64'),
  );
  const sealed = Buffer.from(data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', aesKey, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return JSON.parse(
    Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString(),
  );
}

describe('login envelope', () => {
  const payload = loginPayload('admin', 'Pässwörd 密码!', 'DEMO', 1_700_000_000_000);

  it('WebCrypto output opens on the server side', async () => {
    const sealed = await sealWithWebCrypto(webcrypto.subtle as SubtleCrypto, key, payload);
    expect(open(sealed.appSecret, sealed.data)).toEqual(payload);
  });

  it('node-forge output (no crypto.subtle) opens on the server side', () => {
    const sealed = sealWithForge(key, payload);
    expect(open(sealed.appSecret, sealed.data)).toEqual(payload);
  });

  it('time carries the _admin suffix', () => {
    expect(payload.time).toBe('1700000000000_admin');
  });
});
