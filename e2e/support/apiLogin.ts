import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { Credentials } from './accounts.js';

interface PublicKeyAnswer {
  BaseResult: { Code: number };
  BaseData: { keyId: string; alg: string; spki: string };
}

interface LoginAnswer {
  Code: number;
  Message: string;
  access_token?: string;
  refresh_token?: string;
}

/**
 * The login envelope of DESIGN.md section 4, sealed in Node: a fresh AES-256 key wrapped with
 * RSA-OAEP-SHA256, and iv(12) || AES-256-GCM(JSON) || tag.
 */
async function loginTokens(credentials: Credentials): Promise<{ access: string; refresh?: string | undefined }> {
  const baseUrl = inject('baseUrl');
  const key = ((await (await fetch(`${baseUrl}/api/UAuth/PublicKey`)).json()) as PublicKeyAnswer).BaseData;
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const payload = JSON.stringify({
    username: credentials.account,
    password: credentials.password,
    code: credentials.code,
    time: `${Date.now()}_admin`,
  });
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  const sealed = Buffer.concat([iv, cipher.update(payload, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const appSecret = publicEncrypt(
    {
      key: createPublicKey({ key: Buffer.from(key.spki, 'base64'), format: 'der', type: 'spki' }),
      padding: constants.RSA_PKCS1_OAEP_PADDING,
      oaepHash: 'sha256',
    },
    aesKey,
  );
  const response = await fetch(`${baseUrl}/api/UAuth/Login`, {
    method: 'POST',
    body: new URLSearchParams({
      appId: 'console',
      companyId: credentials.code,
      keyId: key.keyId,
      appSecret: appSecret.toString('base64'),
      data: sealed.toString('base64'),
    }),
  });
  const answer = (await response.json()) as LoginAnswer;
  expect(answer.Code, `login of ${credentials.account}: ${answer.Message}`).toBe(8888);
  return { access: answer.access_token ?? answer.Message, refresh: answer.refresh_token };
}

/**
 * Signs a browser in without its login page, for tests about something else: the session goes
 * into the cookies the console reads (function_access_token / function_refresh_token).
 */
export async function signInByApi(page: Page, credentials: Credentials): Promise<void> {
  const tokens = await loginTokens(credentials);
  const url = inject('baseUrl');
  await page
    .context()
    .addCookies([
      { name: 'function_access_token', value: tokens.access, url, sameSite: 'Strict' },
      ...(tokens.refresh
        ? [{ name: 'function_refresh_token', value: tokens.refresh, url, sameSite: 'Strict' as const }]
        : []),
    ]);
}

/** The access token the console keeps for this page's browser (cookie function_access_token). */
export async function tokenOf(page: Page): Promise<string> {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'function_access_token')?.value;
  if (!token) throw new Error('this browser holds no function_access_token cookie');
  return token;
}

export interface ApiAnswer {
  status: number;
  body: { BaseResult: { Code: number; Message: string }; BaseData?: unknown; Data?: unknown };
}

/** POSTs a JSON body with a given bearer token (the calls whose fields are arrays or objects). */
export async function postJson(token: string, path: string, body: unknown): Promise<ApiAnswer> {
  const response = await fetch(new URL(path, inject('baseUrl')), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'] };
}

/** Calls the API with a given bearer token (for setup and for checks the screen cannot show). */
export async function callApi(
  token: string,
  method: 'GET' | 'POST',
  path: string,
  query: Record<string, string> = {},
): Promise<ApiAnswer> {
  const url = new URL(path, inject('baseUrl'));
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await fetch(url, { method, headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'] };
}

/** Deletes the console accounts named `loginName` (the simulator's own, after a file that ran a fleet). */
export async function deleteConsoleAccounts(token: string, loginName: string): Promise<void> {
  const accounts = await callApi(token, 'GET', '/api/Account/QueryData', {
    jsonCondition: JSON.stringify({ LoginName: loginName }),
  });
  for (const { A_ID } of accounts.body.Data as { A_ID: number }[]) {
    await fetch(new URL(`/api/Account/Delete/${A_ID}`, inject('baseUrl')), {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
  }
}
