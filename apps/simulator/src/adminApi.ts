import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { phoneOf } from './options.js';

interface Envelope<T = unknown> {
  BaseResult?: { Code: number; Message: string };
  Code?: number;
  Message?: string;
  Data?: T[];
  BaseData?: T;
  access_token?: string;
}

async function json<T>(response: Response): Promise<Envelope<T>> {
  try {
    return (await response.json()) as Envelope<T>;
  } catch {
    throw new Error(`${response.url} answered ${response.status} without JSON`);
  }
}

/** The server refused a console login (wrong name or password, locked, disabled): not a network failure. */
export class ConsoleLoginError extends Error {
  constructor(
    message: string,
    readonly code: number | undefined,
  ) {
    super(message);
  }
}

/** The console's login envelope (DESIGN.md section 4): RSA-OAEP-wrapped AES-256-GCM. Returns the access token. */
export async function adminLogin(url: string, username: string, password: string, code: string): Promise<string> {
  const key = await json<{ keyId: string; spki: string }>(await fetch(`${url}/api/UAuth/PublicKey`));
  if (!key.BaseData) throw new Error('the server gave no login key');
  const { keyId, spki } = key.BaseData;
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  const plain = JSON.stringify({ username, password, code, time: `${Date.now()}_admin` });
  const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const publicKey = createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
  const appSecret = publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    aesKey,
  );
  const body = new URLSearchParams({
    appId: 'simulator',
    companyId: code,
    keyId,
    appSecret: appSecret.toString('base64'),
    data: sealed.toString('base64'),
  });
  const result = await json(await fetch(`${url}/api/UAuth/Login`, { method: 'POST', body }));
  if (result.Code !== 8888 || !result.access_token) {
    const text = `console login of ${username}@${code} failed: ${result.Code ?? '?'} ${result.Message ?? ''}`;
    throw new ConsoleLoginError(text, result.Code);
  }
  return result.access_token;
}

/**
 * Ends the console session the setup used (`POST /api/Account/Logout`): one session per account, so
 * an administrator who logs in afterwards replaces nothing. A failure is only reported.
 */
export async function adminLogout(url: string, token: string): Promise<void> {
  const res = await fetch(`${url}/api/Account/Logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`logout answered HTTP ${res.status}`);
}

export interface FleetUser {
  phone: string;
  UserID: number;
  created: boolean;
}

/** Runs of consecutive indexes: [[start, count], ...], each at most `max` long. */
export function runsOf(indexes: readonly number[], max: number): [number, number][] {
  const runs: [number, number][] = [];
  for (const i of indexes) {
    const last = runs.at(-1);
    if (last && last[0] + last[1] === i && last[1] < max) last[1] += 1;
    else runs.push([i, 1]);
  }
  return runs;
}

/**
 * Makes sure users `phoneStart`, `phoneStart + 1`, ... exist in the caller's enterprise: the ones
 * already there are reused (they keep their password), the missing ones are created with the
 * users API (`/api/UserInfo/BatchAdd`, at most 99 a call, named `Sim<phone>`).
 */
export async function ensureUsers(
  url: string,
  token: string,
  options: { count: number; phoneStart: string; password: string; log: (line: string) => void },
): Promise<FleetUser[]> {
  const headers = { authorization: `Bearer ${token}` };
  const phones = Array.from({ length: options.count }, (_, i) => phoneOf(options.phoneStart, i));
  const existing = new Map<string, number>();
  for (let i = 0; i < phones.length; i += 500) {
    const condition = JSON.stringify({ MobilePhone: { in: phones.slice(i, i + 500) } });
    const query = new URLSearchParams({ jsonCondition: condition, pageSize: '500' });
    const page = await json<{ MobilePhone: string; UserID: number }>(
      await fetch(`${url}/api/UserInfo/QueryData?${query}`, { headers }),
    );
    if (page.BaseResult?.Code !== 8888) throw new Error(`listing users failed: ${page.BaseResult?.Message ?? '?'}`);
    for (const row of page.Data ?? []) existing.set(row.MobilePhone, row.UserID);
  }
  const missing = phones.map((phone, i) => (existing.has(phone) ? -1 : i)).filter((i) => i >= 0);
  if (missing.length > 0) options.log(`creating ${missing.length} users (${existing.size} reused)`);
  const created = new Set<string>();
  for (const [start, count] of runsOf(missing, 99)) {
    const form = new URLSearchParams({
      prefix: 'Sim',
      start: phones[start] as string,
      count: String(count),
      Password: options.password,
    });
    const result = await json<{ users: { UserID: number; MobilePhone: string }[] }>(
      await fetch(`${url}/api/UserInfo/BatchAdd`, { method: 'POST', headers, body: form }),
    );
    if (result.BaseResult?.Code !== 8888 || !result.BaseData) {
      const hint = result.BaseResult?.Message?.includes('shortage')
        ? ' (raise the enterprise quota or use fewer terminals)'
        : '';
      throw new Error(
        `creating users from ${phones[start]} failed: ${result.BaseResult?.Message ?? '?'}${hint}; try another --phone-start`,
      );
    }
    for (const user of result.BaseData.users) {
      existing.set(user.MobilePhone, user.UserID);
      created.add(user.MobilePhone);
    }
  }
  return phones.map((phone) => ({ phone, UserID: existing.get(phone) ?? 0, created: created.has(phone) }));
}

export async function apiCall<T>(
  url: string,
  token: string,
  path: string,
  init: RequestInit = {},
): Promise<Envelope<T>> {
  const headers = { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) };
  const result = await json<T>(await fetch(`${url}${path}`, { ...init, headers }));
  if (result.BaseResult?.Code !== 8888) {
    throw new Error(`${path} failed: ${result.BaseResult?.Code ?? '?'} ${result.BaseResult?.Message ?? ''}`);
  }
  return result;
}

export const postForm = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  body: new URLSearchParams(fields),
});

/**
 * Channels for push-to-talk: every `groupSize` users (in phone order) share one channel named
 * `Sim <first phone>`, made with its members if missing, else the users are added. With `record`
 * the channels it makes record, and with `seed` (the enterprise's first setup) the enterprise's
 * RecordEnable and the existing channels' record switch are turned on too, so every burst lands in
 * the recording history; later runs leave those switches as a person set them. Returns each user's
 * channel id, by phone.
 */
export async function ensureTalkChannels(
  url: string,
  token: string,
  users: readonly FleetUser[],
  options: { groupSize: number; record: boolean; seed?: boolean; log: (line: string) => void },
): Promise<Map<string, number>> {
  const seed = options.seed ?? true;
  if (options.record && seed)
    await apiCall(url, token, '/api/Account/ModifyConfig', postForm({ scCode: 'RecordEnable', scValue: 'TRUE' }));
  const channelOf = new Map<string, number>();
  for (let i = 0; i < users.length; i += options.groupSize) {
    const group = users.slice(i, i + options.groupSize);
    const name = `Sim ${group[0]?.phone}`;
    const uids = group.map((u) => u.UserID).join(',');
    const found = await apiCall<{ CID: number; CName: string; Record: number }>(
      url,
      token,
      `/api/THChannel/QueryChannel?${new URLSearchParams({ search: name, pageSize: '50' })}`,
    );
    const existing = found.Data?.find((c) => c.CName === name);
    let cid: number;
    if (existing) {
      cid = existing.CID;
      await apiCall(url, token, '/api/THChannel/CMemberChange', postForm({ cid: String(cid), action: 'add', uids }));
      if (options.record && seed && !existing.Record) {
        await apiCall(url, token, '/api/Channel/SwitchRecord', postForm({ cid: String(cid), record: 'true' }));
      }
    } else {
      const fields = { cname: name, uids, record: options.record ? 'true' : 'false', note: 'simulator' };
      const created = await apiCall<{ CID: number }>(url, token, '/api/Channel/CreateWebChannel', postForm(fields));
      cid = created.BaseData?.CID ?? 0;
      options.log(`channel "${name}" made for ${group.length} terminals${options.record ? ', recording' : ''}`);
    }
    for (const user of group) channelOf.set(user.phone, cid);
  }
  return channelOf;
}

/** The channel `--video` terminals are members of. */
export const SIM_VIDEO_CHANNEL = 'Simulated video';

/**
 * Gives the simulated users video rights (SPEC.md 8: only video group members support video): the
 * users join the video channel "Simulated video", which is created when missing, and with `seed`
 * (default; the enterprise's first setup) the enterprise's VideoEnable is set TRUE. Needs an admin account.
 */
export async function ensureVideoChannel(
  url: string,
  token: string,
  userIds: readonly number[],
  seed = true,
): Promise<number> {
  if (seed)
    await apiCall(url, token, '/api/Account/ModifyConfig', postForm({ scCode: 'VideoEnable', scValue: 'TRUE' }));
  const query = new URLSearchParams({ search: SIM_VIDEO_CHANNEL, pageSize: '50' });
  const channels = await apiCall<{ CID: number; CName: string }>(url, token, `/api/THChannel/QueryChannel?${query}`);
  const uids = userIds.join(',');
  const existing = channels.Data?.find((c) => c.CName === SIM_VIDEO_CHANNEL);
  if (existing) {
    await apiCall(
      url,
      token,
      '/api/THChannel/CMemberChange',
      postForm({ cid: String(existing.CID), action: 'add', uids }),
    );
    return existing.CID;
  }
  const fields = { cname: SIM_VIDEO_CHANNEL, videoEnable: 'true', uids };
  const created = await apiCall<{ CID: number }>(url, token, '/api/Channel/CreateWebChannel', postForm(fields));
  return created.BaseData?.CID ?? 0;
}

/**
 * Lone worker for the whole enterprise: a check-in every `minutes`, one minute of grace, no
 * movement check; only when the enterprise has no whole-enterprise safety setting yet (a restart
 * keeps the one a person made or changed). True when it was saved.
 */
export async function saveCheckIns(url: string, token: string, minutes: number): Promise<boolean> {
  const profile = await apiCall<never>(url, token, '/api/Account/Profile');
  const E_ID = (profile.BaseData as { E_ID?: number } | undefined)?.E_ID;
  const condition = JSON.stringify({ TargetKind: 'enterprise', E_ID });
  const query = new URLSearchParams({ jsonCondition: condition, pageSize: '1' });
  const rows = await apiCall<{ Key: string }>(url, token, `/api/Safety/QueryData?${query}`);
  if ((rows.Data ?? []).length > 0) return false;
  const body = JSON.stringify({ CheckInMinutes: minutes, GraceMinutes: 1, NoMovementMinutes: 0 });
  await apiCall(url, token, '/api/Safety/Settings', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return true;
}
