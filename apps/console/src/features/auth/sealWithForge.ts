import type { LoginPayload, PublicKey } from '@intercom/contract';
import forge from 'node-forge';
import type { SealedLogin } from './sealLogin';

function randomBytes(length: number): string {
  // getRandomValues exists even where crypto.subtle does not (insecure contexts).
  if (globalThis.crypto?.getRandomValues) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
    return String.fromCharCode(...bytes);
  }
  return forge.random.getBytesSync(length);
}

/** The same envelope as sealWithWebCrypto, for browsers without `crypto.subtle`. */
export function sealWithForge(key: PublicKey, payload: LoginPayload): SealedLogin {
  const publicKey = forge.pki.publicKeyFromAsn1(forge.asn1.fromDer(forge.util.decode64(key.spki)));
  const rawKey = randomBytes(32);
  const iv = randomBytes(12);
  const wrapped = publicKey.encrypt(rawKey, 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  const cipher = forge.cipher.createCipher('AES-GCM', rawKey);
  cipher.start({ iv, tagLength: 128 });
  cipher.update(forge.util.createBuffer(forge.util.encodeUtf8(JSON.stringify(payload))));
  cipher.finish();
  const data = iv + cipher.output.getBytes() + cipher.mode.tag.getBytes();
  return { appSecret: forge.util.encode64(wrapped), data: forge.util.encode64(data) };
}
