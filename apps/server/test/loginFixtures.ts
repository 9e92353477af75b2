import { beforeAll } from 'vitest';
import { createAccount, createEnterprise, loginPayload, publicKeyOf, type TestApp } from './helper.js';
import { useTestApp } from './useTestApp.js';

/** Fixtures of the console login tests (login, loginEnvelope, loginLocks). */
export function loginFixtures(t: TestApp) {
  return {
    /** A fresh enterprise with one editor, so tests that lock or fail logins never disturb each other. */
    freshAccount: async (role: 'admin' | 'editor' = 'editor') => {
      const enterprise = await createEnterprise(t.db);
      const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role });
      return { ...enterprise, ...account };
    },
    /** The login form around an envelope. */
    form: (envelope: { appSecret: string; data: string }, companyId = 'DEMO') => ({
      appId: 'console',
      companyId,
      ...envelope,
    }),
    /** The demo admin's login, right password. */
    adminPayload: () => loginPayload({ username: 'admin', password: t.demo.password, code: 'DEMO' }),
  };
}

/**
 * The app of a console login test file with the fixtures above, and the server's login public key
 * (`spki()`), read once before the file's tests.
 */
export function useLoginApp() {
  const t = useTestApp();
  let spki = '';
  beforeAll(async () => {
    spki = await publicKeyOf(t.app);
  });
  return { t, spki: () => spki, ...loginFixtures(t) };
}
