import crypto, { type KeyObject } from 'node:crypto';
import fs from 'node:fs';

// The bundle (scripts/buildTalkAgent.mjs) defines this: a JSON array of the public keys (SPKI PEM)
// it was built to trust. From source the keys are read from apps/talk-agent/keys/*.pem.
declare const __TALK_AGENT_UPDATE_KEYS__: string | undefined;

/**
 * The bytes the build signs: the version and the SHA-256 of talk-agent.mjs, behind a fixed prefix so a
 * signature made with the key for anything else never passes. scripts/talkAgentSigning.mjs writes the
 * same bytes; test/updateSignature.test.ts checks the two agree.
 */
export function signedMessage(version: string, sha256Hex: string): Buffer {
  return Buffer.from(`intercom-talk-agent-update\n${version}\n${sha256Hex}\n`, 'utf8');
}

function keysFromRepository(): string[] {
  const dir = new URL('../keys/', import.meta.url);
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.pem'))
      .map((name) => fs.readFileSync(new URL(name, dir), 'utf8'));
  } catch {
    return [];
  }
}

/** The Ed25519 public keys an update must be signed with (baked into the bundle at build time). */
export function pinnedUpdateKeys(): KeyObject[] {
  const pems =
    typeof __TALK_AGENT_UPDATE_KEYS__ === 'string'
      ? (JSON.parse(__TALK_AGENT_UPDATE_KEYS__) as string[])
      : keysFromRepository();
  return pems.map((pem) => crypto.createPublicKey(pem)).filter((key) => key.asymmetricKeyType === 'ed25519');
}

/** True when `signature` (base64) is an Ed25519 signature of this package by one of `keys`. */
export function verifyPackage(
  content: Buffer,
  version: string,
  signature: string,
  keys: readonly KeyObject[],
): boolean {
  const sha256 = crypto.createHash('sha256').update(content).digest('hex');
  const message = signedMessage(version, sha256);
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length !== 64) return false;
  return keys.some((key) => crypto.verify(null, message, key, bytes));
}
