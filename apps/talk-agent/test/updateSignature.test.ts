import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pinnedUpdateKeys, signedMessage, verifyPackage } from '../src/updateSignature.js';
import * as signing from '../../../scripts/talkAgentSigning.mjs';
import { tempDir } from './agentFixtures.js';

// The build's half (scripts/talkAgentSigning.mjs) and the agent's half (src/updateSignature.ts) of the
// package signature, with throwaway keys: no private key is ever in the repository.
const dir = tempDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
const pem = (key: crypto.KeyObject, type: 'pkcs8' | 'spki') => key.export({ type, format: 'pem' }).toString();
const content = Buffer.from('console.log("agent");\n');

function keyFile(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text, { mode: 0o600 });
  return file;
}

describe('the build signs the package when TALK_AGENT_SIGNING_KEY names a key', () => {
  it('signs what the agent verifies: same bytes, version bound in', () => {
    expect(signing.signedMessage('1.2.3', 'ab')).toEqual(signedMessage('1.2.3', 'ab'));
    const key = signing.readSigningKey({ TALK_AGENT_SIGNING_KEY: keyFile('release.pem', pem(privateKey, 'pkcs8')) });
    expect(key).toBeDefined();
    const { signature, keyId } = signing.signPackage(key!, '1.2.3', content);
    expect(keyId).toBe(signing.keyId(publicKey));
    expect(verifyPackage(content, '1.2.3', signature, [publicKey])).toBe(true);
    // Another version, other bytes, or another key: no.
    expect(verifyPackage(content, '1.2.4', signature, [publicKey])).toBe(false);
    expect(verifyPackage(Buffer.from('console.log("evil");\n'), '1.2.3', signature, [publicKey])).toBe(false);
    expect(verifyPackage(content, '1.2.3', signature, [crypto.generateKeyPairSync('ed25519').publicKey])).toBe(false);
    expect(verifyPackage(content, '1.2.3', signature, [])).toBe(false);
  });

  it('leaves the build unsigned when the variable is unset, and names the variable when its file is wrong', () => {
    expect(signing.readSigningKey({})).toBeUndefined();
    expect(signing.readSigningKey({ TALK_AGENT_SIGNING_KEY: '' })).toBeUndefined();
    expect(() => signing.readSigningKey({ TALK_AGENT_SIGNING_KEY: path.join(dir, 'missing.pem') })).toThrow(
      /TALK_AGENT_SIGNING_KEY: cannot read .*missing\.pem \(ENOENT\)/,
    );
    expect(() => signing.readSigningKey({ TALK_AGENT_SIGNING_KEY: keyFile('junk.pem', 'hello') })).toThrow(
      'is not a private key in PEM',
    );
    const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => signing.readSigningKey({ TALK_AGENT_SIGNING_KEY: keyFile('rsa.pem', pem(rsa, 'pkcs8')) })).toThrow(
      'an Ed25519 key is needed',
    );
  });

  it("trusts the keys folder's public keys and the signing key's own, and refuses a private key there", () => {
    const keys = path.join(dir, 'keys');
    fs.mkdirSync(keys);
    const other = crypto.generateKeyPairSync('ed25519').publicKey;
    fs.writeFileSync(path.join(keys, 'release.pem'), pem(other, 'spki'));
    fs.writeFileSync(path.join(keys, 'README.md'), 'not a key');
    const trusted = signing.trustedKeys(keys, privateKey).map((k) => signing.keyId(crypto.createPublicKey(k)));
    expect(trusted.sort()).toEqual([signing.keyId(other), signing.keyId(publicKey)].sort());
    expect(signing.trustedKeys(keys, undefined).join('')).not.toContain('PRIVATE');

    fs.writeFileSync(path.join(keys, 'oops.pem'), pem(privateKey, 'pkcs8'));
    expect(() => signing.trustedKeys(keys, undefined)).toThrow('holds a private key');
  });

  it('ships no private key: the keys the agent pins from the repository are public Ed25519 keys', () => {
    const folder = new URL('../keys/', import.meta.url);
    for (const name of fs.readdirSync(folder))
      expect(fs.readFileSync(new URL(name, folder), 'utf8')).not.toContain('PRIVATE');
    for (const key of pinnedUpdateKeys()) expect(key.asymmetricKeyType).toBe('ed25519');
  });
});
