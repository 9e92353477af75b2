import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const KEY_LENGTH = 32;

/**
 * Hashes with scrypt (DESIGN.md: N=2^17, r=8, p=1). The parameters are stored with the hash, so
 * a later change of cost still verifies old hashes.
 */
export async function hashPassword(password: string, logN = 17): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** logN;
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return `scrypt$${logN}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const logN = Number(parts[1]);
  const r = Number(parts[2]);
  const p = Number(parts[3]);
  if (!Number.isInteger(logN) || logN < 1 || logN > 20) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  const N = 2 ** logN;
  const key = await scrypt(password, salt, expected.length, { N, r, p, maxmem: 256 * N * r });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const dummyHashes = new Map<number, Promise<string>>();

/** A hash of cost 2^logN that no password matches in practice, made once per cost. */
export function dummyHash(logN: number): Promise<string> {
  let dummy = dummyHashes.get(logN);
  if (!dummy) {
    dummy = hashPassword('no account has this password', logN);
    dummyHashes.set(logN, dummy);
  }
  return dummy;
}

/**
 * Spends the time a real password check costs (scrypt at the cost of new hashes) for a name or phone
 * nobody has, so the answer time does not tell which exist. Console and terminal logins use it.
 */
export async function verifyAgainstDummy(password: string, logN: number): Promise<void> {
  await verifyPassword(password, await dummyHash(logN));
}
