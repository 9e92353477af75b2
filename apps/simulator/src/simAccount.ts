import { createHmac } from 'node:crypto';
import { ConsoleLoginError, adminLogin, adminLogout, apiCall, postForm } from './adminApi.js';

/** The console account the simulator works with by default (`--sim-account`). */
export const SIM_ACCOUNT = 'simulator';

export interface SessionOptions {
  url: string;
  enterprise: string;
  /** The administrator who sets the simulator's account up when it is missing. */
  account: string;
  password: string | undefined;
  /** The simulator's own account (the CLI's default: SIM_ACCOUNT); absent or the administrator's name: work as the administrator. */
  simAccount?: string | undefined;
  /** Its password; absent: derived from the administrator's password (simulatorPassword). */
  simPassword?: string | undefined;
}

export interface ConsoleSession {
  token: string;
  /** The account the session belongs to. */
  account: string;
  /**
   * True when this run sets the enterprise up for the first time (it created the simulator's
   * account, or it works as the administrator itself): enterprise switches are seeded only then.
   */
  firstSetup: boolean;
}

/**
 * The simulator's own password when none is given: an HMAC of the administrator's password, so a
 * later run finds it again without storing it, and only who knows the admin password can log in as
 * the simulator. 16 characters with upper and lower case, a digit and a sign (the password rule).
 */
export function simulatorPassword(adminPassword: string, enterprise: string, account: string): string {
  const mac = createHmac('sha256', adminPassword).update(`intercom-simulator\0${enterprise}\0${account}`);
  return `S${mac.digest('base64url').replace(/[-_]/g, 'x').slice(0, 12)}a7!`;
}

/**
 * A console session for the setup that ends nobody's session: one session per account (a login
 * replaces the account's other session, "signed in elsewhere"), so the simulator logs in as its own
 * account. Only when that account is missing (or its password is not the one expected) does it log
 * in as the administrator, once, to create it (role admin) or set its password, and log out again.
 */
export async function simulatorSession(options: SessionOptions, log: (line: string) => void): Promise<ConsoleSession> {
  const { url, enterprise, account: admin, password: adminPassword } = options;
  const own = options.simAccount ?? admin;
  if (own === admin) {
    if (!adminPassword) throw new Error(`the password of "${admin}" is needed: --password`);
    return { token: await adminLogin(url, admin, adminPassword, enterprise), account: admin, firstSetup: true };
  }
  const ownPassword = options.simPassword ?? (adminPassword && simulatorPassword(adminPassword, enterprise, own));
  if (!ownPassword) {
    throw new Error(
      'the admin password is needed to set the simulator up: --password, SIM_ADMIN_PASSWORD or ADMIN_PASSWORD',
    );
  }
  try {
    return { token: await adminLogin(url, own, ownPassword, enterprise), account: own, firstSetup: false };
  } catch (error) {
    if (!(error instanceof ConsoleLoginError) || !adminPassword) throw error;
  }
  log(`setting up the console account "${own}" with "${admin}" (this once ends a console session of "${admin}")`);
  const adminToken = await adminLogin(url, admin, adminPassword, enterprise);
  try {
    await saveAccount(url, adminToken, own, ownPassword);
  } finally {
    await adminLogout(url, adminToken).catch((error: unknown) =>
      log(`logout of "${admin}" failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  return { token: await adminLogin(url, own, ownPassword, enterprise), account: own, firstSetup: true };
}

/** Creates the account (role admin: it creates users, channels and settings) or sets its password. */
async function saveAccount(url: string, token: string, login: string, password: string): Promise<void> {
  const query = new URLSearchParams({ jsonCondition: JSON.stringify({ LoginName: login }), pageSize: '10' });
  const found = await apiCall<{ A_ID: number; LoginName: string }>(url, token, `/api/Account/QueryData?${query}`);
  const existing = found.Data?.find((a) => a.LoginName === login);
  if (existing) {
    const fields = { A_ID: String(existing.A_ID), Password: password };
    await apiCall(url, token, '/api/Account/ResetPassword', postForm(fields));
    return;
  }
  const fields = { A_ID: '0', LoginName: login, Name: 'Simulator', Role: 'admin', Password: password };
  await apiCall(url, token, '/api/Account/Save', postForm(fields));
}
