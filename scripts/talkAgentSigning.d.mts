/// <reference types="node" />
import type { KeyObject } from 'node:crypto';

/** The bytes the build signs (the agent's updateSignature.ts builds the same). */
export function signedMessage(version: string, sha256Hex: string): Buffer;
export function keyId(publicKey: KeyObject): string;
/** The Ed25519 private key named by TALK_AGENT_SIGNING_KEY; undefined when unset; throws on a bad file. */
export function readSigningKey(env?: Record<string, string | undefined>): KeyObject | undefined;
/** The public keys (SPKI PEM) a bundle trusts: keysDir/*.pem and the signing key's own. */
export function trustedKeys(keysDir: string, signingKey: KeyObject | undefined): string[];
export function signPackage(
  signingKey: KeyObject,
  version: string,
  content: Buffer,
): { signature: string; keyId: string };
