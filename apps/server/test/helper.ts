import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { hashPassword } from '../src/auth/passwords.js';
import type { DB } from '../src/db/schema.js';
import { TEST_LOG_N, type TestApp } from './testApp.js';

/** The origin address of injected requests unless a test sets another. */
export const TEST_IP = '127.0.0.1';

// The fixture lives in testApp.ts; the request helpers below take what it builds.
export {
  ADMIN_PASSWORD,
  TEST_LOG_N,
  buildTestApp,
  createPostgresDatabase,
  type TestApp,
  type TestAppOptions,
} from './testApp.js';

/** A stack frame line as V8 prints it: what no response body may ever carry. */
const STACK_FRAME = /\n\s+at\s|\bat\s+\S+\s+\([^)]*:\d+:\d+\)|node_modules|\.ts:\d+/;

/** `app.inject` that also proves the body carries no stack trace or source path. */
export async function call(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await app.inject(options);
  const contentType = String(res.headers['content-type'] ?? '');
  if (!contentType.includes('spreadsheetml')) {
    const url = typeof options.url === 'object' ? options.url.pathname : options.url;
    expect(res.body, `${String(options.method)} ${String(url)} leaks internals`).not.toMatch(STACK_FRAME);
  }
  return res;
}

/** The envelope of a JSON response. */
export interface EnvelopeBody {
  BaseResult: { Code: number; Message: string; Params?: Record<string, string | number>; RequestId?: string };
  Data?: unknown[];
  Total?: number;
  BaseData?: unknown;
}

export function envelope(res: LightMyRequestResponse): EnvelopeBody {
  return res.json<EnvelopeBody>();
}

/** Asserts an envelope failure: HTTP status, Code and (optionally) the Message key. */
export function expectFailure(
  res: LightMyRequestResponse,
  status: number,
  code: number,
  message?: string,
): EnvelopeBody {
  const body = res.json<EnvelopeBody>();
  expect({ status: res.statusCode, code: body.BaseResult.Code }).toEqual({ status, code });
  if (message !== undefined) expect(body.BaseResult.Message).toBe(message);
  return body;
}

/** Asserts success (HTTP 200, Code 8888) and returns the envelope. */
export function expectSuccess(res: LightMyRequestResponse): EnvelopeBody {
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<EnvelopeBody>();
  expect(body.BaseResult.Code).toBe(8888);
  return body;
}

export interface LoginPayloadInput {
  username: string;
  password: string;
  code: string;
  /** Epoch ms of the client clock; defaults to now. */
  time?: number;
}

export interface LoginEnvelope {
  appSecret: string;
  data: string;
}

/** The plaintext of a login envelope: `time` is epoch ms followed by `_admin`. */
export function loginPayload(input: LoginPayloadInput): Record<string, string> {
  return {
    username: input.username,
    password: input.password,
    code: input.code,
    time: `${input.time ?? Date.now()}_admin`,
  };
}

/**
 * The client side of the login envelope (DESIGN.md section 4): a fresh AES-256 key wrapped with
 * RSA-OAEP-SHA256, and `iv(12) || AES-256-GCM ciphertext || tag(16)` of the payload. Objects are
 * sent as JSON, strings as they are (for tests of malformed plaintext).
 */
export function encryptLogin(spki: string, payload: string | Record<string, unknown>): LoginEnvelope {
  const publicKey = createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
  const aesKey = randomBytes(32);
  const appSecret = publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    aesKey,
  ).toString('base64');
  const plain = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const data = Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64');
  return { appSecret, data };
}

export async function publicKeyOf(app: FastifyInstance): Promise<string> {
  const res = await call(app, { method: 'GET', url: '/api/UAuth/PublicKey' });
  const body = expectSuccess(res);
  return (body.BaseData as { spki: string }).spki;
}

/** POSTs a login form (form-encoded, as the console sends it). */
export async function postLogin(
  app: FastifyInstance,
  form: Record<string, string>,
  options: { ip?: string; forwardedFor?: string } = {},
): Promise<LightMyRequestResponse> {
  const forwarded = options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {};
  return call(app, {
    method: 'POST',
    url: '/api/UAuth/Login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...forwarded },
    payload: new URLSearchParams(form).toString(),
    remoteAddress: options.ip ?? TEST_IP,
  });
}

/** Encrypts and posts a login; returns the raw response. */
export async function loginRaw(
  app: FastifyInstance,
  input: LoginPayloadInput,
  options: { ip?: string; companyId?: string; forwardedFor?: string } = {},
): Promise<LightMyRequestResponse> {
  const spki = await publicKeyOf(app);
  const envelopeFields = encryptLogin(spki, loginPayload(input));
  return postLogin(app, { appId: 'console', companyId: options.companyId ?? input.code, ...envelopeFields }, options);
}

export interface LoginTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** Logs in and returns the tokens; fails the test unless the login succeeds. */
export async function login(app: FastifyInstance, input: LoginPayloadInput): Promise<LoginTokens> {
  const res = await loginRaw(app, input);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ Code: number; Message: string } & LoginTokens>();
  expect(body.Code).toBe(8888);
  return { access_token: body.access_token, refresh_token: body.refresh_token, expires_in: body.expires_in };
}

export async function loginAdmin(t: TestApp): Promise<string> {
  const tokens = await login(t.app, { username: t.demo.username, password: t.demo.password, code: t.demo.code });
  return tokens.access_token;
}

/** Inject helpers that carry `Authorization: Bearer <token>`. */
export function authed(app: FastifyInstance, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (url: string) => call(app, { method: 'GET', url, headers }),
    delete: (url: string) => call(app, { method: 'DELETE', url, headers }),
    post: (url: string, form?: Record<string, string>) =>
      call(app, {
        method: 'POST',
        url,
        headers: form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
        ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
      }),
    postJson: (url: string, body: unknown) => call(app, { method: 'POST', url, headers, payload: body as object }),
    inject: (options: InjectOptions) => call(app, { ...options, headers: { ...options.headers, ...headers } }),
  };
}

let uniqueCounter = 0;
/** A short code nobody else in this database uses. */
export function uniqueCode(prefix = 'E'): string {
  uniqueCounter += 1;
  return `${prefix}${uniqueCounter}${randomBytes(3).toString('hex')}`.toUpperCase();
}

/** Creates an enterprise directly in the database (optionally under a parent). */
export async function createEnterprise(
  db: Kysely<DB>,
  input: { code?: string; name?: string; parentId?: number | null; quota?: number } = {},
): Promise<{ E_ID: number; code: string }> {
  const code = input.code ?? uniqueCode();
  const row = await db
    .insertInto('enterprise')
    .values({
      E_Code: code,
      E_Name: input.name ?? `Enterprise ${code}`,
      P_ID: input.parentId ?? null,
      A_ID: null,
      Quota: input.quota ?? 100,
      ExpireAt: null,
      Disabled: 0,
      CreatedAt: Date.now(),
    })
    .returning('E_ID')
    .executeTakeFirstOrThrow();
  return { E_ID: row.E_ID, code };
}

/** Creates a console account directly in the database. */
export async function createAccount(
  db: Kysely<DB>,
  input: { E_ID: number; username?: string; password?: string; role?: 'admin' | 'editor'; name?: string },
): Promise<{ A_ID: number; username: string; password: string }> {
  const username = input.username ?? `user${uniqueCode('').toLowerCase()}`;
  const password = input.password ?? 'Editor#2026pw';
  const row = await db
    .insertInto('account')
    .values({
      E_ID: input.E_ID,
      LoginName: username,
      Name: input.name ?? '',
      Mail: '',
      PasswordHash: await hashPassword(password, TEST_LOG_N),
      Role: input.role ?? 'editor',
      Disabled: 0,
      FailedCount: 0,
      LockedUntil: null,
      CreatedAt: Date.now(),
    })
    .returning('A_ID')
    .executeTakeFirstOrThrow();
  return { A_ID: row.A_ID, username, password };
}

/** An enterprise with an account of the given role, logged in. */
export async function enterpriseWithAccount(
  t: TestApp,
  input: { role?: 'admin' | 'editor'; parentId?: number | null; quota?: number } = {},
): Promise<{ E_ID: number; code: string; A_ID: number; username: string; password: string; token: string }> {
  const enterprise = await createEnterprise(t.db, { parentId: input.parentId ?? null, quota: input.quota ?? 100 });
  return { ...enterprise, ...(await signedInAccount(t, enterprise, input.role ?? 'admin')) };
}

/** Another account of the enterprise, logged in: a console session of its own (one session per account). */
export async function accountSession(
  t: TestApp,
  enterprise: { E_ID: number; code: string },
  role: 'admin' | 'editor' = 'editor',
): Promise<{ A_ID: number; token: string }> {
  const { A_ID, token } = await signedInAccount(t, enterprise, role);
  return { A_ID, token };
}

async function signedInAccount(t: TestApp, enterprise: { E_ID: number; code: string }, role: 'admin' | 'editor') {
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role });
  const tokens = await login(t.app, { username: account.username, password: account.password, code: enterprise.code });
  return { ...account, token: tokens.access_token };
}

/** Inserts one system-log row directly (for query, export and tenancy tests). */
export async function insertSysLog(
  db: Kysely<DB>,
  row: { E_ID: number; Operator?: string; Action?: string; Target?: string; Summary?: string; CreatedAt?: number },
): Promise<number> {
  const inserted = await db
    .insertInto('sys_log')
    .values({
      E_ID: row.E_ID,
      A_ID: null,
      Operator: row.Operator ?? 'tester',
      Action: row.Action ?? 'test',
      Target: row.Target ?? '',
      Summary: row.Summary ?? '',
      IP: TEST_IP,
      CreatedAt: row.CreatedAt ?? Date.now(),
    })
    .returning('L_ID')
    .executeTakeFirstOrThrow();
  return Number(inserted.L_ID);
}

/** Rows of the system log of one enterprise, newest last. */
export async function sysLogOf(db: Kysely<DB>, E_ID: number) {
  return db.selectFrom('sys_log').selectAll().where('E_ID', '=', E_ID).orderBy('L_ID', 'asc').execute();
}
