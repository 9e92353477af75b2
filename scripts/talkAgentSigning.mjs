// Signing the talk agent's package: the build signs talk-agent.mjs with the Ed25519 private key in the
// file named by TALK_AGENT_SIGNING_KEY, and bakes the public keys it trusts into the bundle
// (apps/talk-agent/keys/*.pem plus the signing key's own), so an agent only installs updates made by
// whoever holds that key (docs/talk-agent.md "Updating"). No key in the repository is private.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The bytes signed: the version and SHA-256 of talk-agent.mjs behind a fixed prefix. The agent builds
 * the same bytes (apps/talk-agent/src/updateSignature.ts; its test checks that the two agree).
 */
export function signedMessage(version, sha256Hex) {
  return Buffer.from(`intercom-talk-agent-update\n${version}\n${sha256Hex}\n`, 'utf8');
}

/** A short name of a public key: the first 16 hex digits of the SHA-256 of its SPKI encoding. */
export function keyId(publicKey) {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return crypto.createHash('sha256').update(der).digest('hex').slice(0, 16);
}

/**
 * The private key named by TALK_AGENT_SIGNING_KEY, or undefined when the variable is unset or empty.
 * Throws, naming the variable, when the file cannot be read or is not an Ed25519 private key in PEM.
 */
export function readSigningKey(env = process.env) {
  const file = env.TALK_AGENT_SIGNING_KEY;
  if (!file) return undefined;
  let pem;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`TALK_AGENT_SIGNING_KEY: cannot read ${file} (${error.code ?? error.message})`, { cause: error });
  }
  let key;
  try {
    key = crypto.createPrivateKey(pem);
  } catch (error) {
    throw new Error(`TALK_AGENT_SIGNING_KEY: ${file} is not a private key in PEM`, { cause: error });
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`TALK_AGENT_SIGNING_KEY: ${file} is a ${key.asymmetricKeyType} key; an Ed25519 key is needed`);
  return key;
}

/**
 * The public keys (SPKI PEM) a bundle trusts: every *.pem of `keysDir` and the signing key's own.
 * A private key in `keysDir` is refused: that folder is committed and its keys go into the bundle.
 */
export function trustedKeys(keysDir, signingKey) {
  const byId = new Map();
  const names = fs.existsSync(keysDir) ? fs.readdirSync(keysDir).filter((n) => n.endsWith('.pem')) : [];
  for (const name of names.sort()) {
    const pem = fs.readFileSync(path.join(keysDir, name), 'utf8');
    if (pem.includes('PRIVATE KEY')) throw new Error(`${path.join(keysDir, name)} holds a private key: remove it`);
    const key = crypto.createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${path.join(keysDir, name)} is not an Ed25519 key`);
    byId.set(keyId(key), key.export({ type: 'spki', format: 'pem' }).toString());
  }
  if (signingKey) {
    const key = crypto.createPublicKey(signingKey);
    byId.set(keyId(key), key.export({ type: 'spki', format: 'pem' }).toString());
  }
  return [...byId.values()];
}

/** The manifest fields of a signed package: its Ed25519 signature (base64) and the signing key's id. */
export function signPackage(signingKey, version, content) {
  const sha256 = crypto.createHash('sha256').update(content).digest('hex');
  const signature = crypto.sign(null, signedMessage(version, sha256), signingKey).toString('base64');
  return { signature, keyId: keyId(crypto.createPublicKey(signingKey)) };
}
