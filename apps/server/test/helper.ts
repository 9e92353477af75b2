import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { expect } from 'vitest';
import { buildApp } from '../src/app.js';
import type { AppDeps } from '../src/appDeps.js';
import { hashPassword } from '../src/auth/passwords.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/createDeps.js';
import type { DB } from '../src/db/schema.js';
import { DEMO_ADMIN, DEMO_CODE, seedFirstRun } from '../src/auth/seedFirstRun.js';

/** The DEMO admin's password in every test app. */
export const ADMIN_PASSWORD = 'Admin#2026pw';
/** scrypt cost of test hashes: 2^10 keeps a login in the low milliseconds. */
export const TEST_LOG_N = 10;
/** The origin address of injected requests unless a test sets another. */
export const TEST_IP = '127.0.0.1';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  db: Kysely<DB>;
  dialect: AppDeps['dialect'];
  /** The DEMO enterprise and its admin account, as seeded. */
  demo: { E_ID: number; A_ID: number; code: string; username: string; password: string };
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment for loadConfig (strings, as the real environment has). */
  env?: Record<string, string>;
  /** Fastify logger option (pino options, may carry a `stream`). */
  logger?: FastifyServerOptions['logger'];
  /** A built console to serve (a directory with index.html). */
  consoleDir?: string;
}

/** A fresh, empty PostgreSQL database for one test app; dropped on close. */
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `intercom_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // Let the app's pool finish closing its connections before forcing out any stragglers.
        for (let i = 0; i < 20; i++) {
          const open = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (open.rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Builds the whole server on a clean database: SQLite in memory, or a fresh PostgreSQL database
 * when TEST_DATABASE_URL is set. Migrated, with the DEMO enterprise seeded (admin / ADMIN_PASSWORD).
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-server-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const pgDatabase = adminUrl ? await createPostgresDatabase(adminUrl) : undefined;
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      LOGIN_IP_LIMIT_PER_MINUTE: '100000',
      ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
      ...options.env,
    },
    options.consoleDir,
  );
  let runtime: Awaited<ReturnType<typeof createDeps>> | undefined;
  let built: FastifyInstance | undefined;
  let enterprise: { E_ID: number; A_ID: number | null };
  try {
    runtime = await createDeps(config, { sqliteFile: ':memory:', passwordLogN: TEST_LOG_N });
    await seedFirstRun(runtime.deps.db, config.adminPassword, runtime.deps.passwordLogN);
    built = await buildApp(runtime.deps, options.logger === undefined ? {} : { logger: options.logger });
    await built.ready();
    enterprise = await runtime.deps.db
      .selectFrom('enterprise')
      .select(['E_ID', 'A_ID'])
      .where('E_Code', '=', DEMO_CODE)
      .executeTakeFirstOrThrow();
  } catch (error) {
    // Leave nothing behind: a half-built app must not keep a PostgreSQL database alive.
    await built?.close();
    await runtime?.database.close();
    await pgDatabase?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { deps, database } = runtime;
  const app = built;
  let closed = false;
  return {
    app,
    deps,
    db: deps.db,
    dialect: deps.dialect,
    demo: {
      E_ID: enterprise.E_ID,
      A_ID: Number(enterprise.A_ID),
      code: DEMO_CODE,
      username: DEMO_ADMIN,
      password: ADMIN_PASSWORD,
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await database.close();
      await pgDatabase?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A stack frame line as V8 prints it: what no response body may ever carry. */
const STACK_FRAME = /\n\s+at\s|\bat\s+\S+\s+\([^)]*:\d+:\d+\)|node_modules|\.ts:\d+/;

/** `app.inject` that also proves the body carries no stack trace or source path. */
export async function call(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await app.inject(options);
  const contentType = String(res.headers['content-type'] ?? '');
  if (!contentType.includes('spreadsheetml')) {
    expect(res.body, `${String(options.method)} ${String(options.url)} leaks internals`).not.toMatch(STACK_FRAME);
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
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role: input.role ?? 'admin' });
  const tokens = await login(t.app, { username: account.username, password: account.password, code: enterprise.code });
  return { ...enterprise, ...account, token: tokens.access_token };
}

/** Another account of the enterprise, logged in: a console session of its own (one session per account). */
export async function accountSession(
  t: TestApp,
  enterprise: { E_ID: number; code: string },
  role: 'admin' | 'editor' = 'editor',
): Promise<{ A_ID: number; token: string }> {
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role });
  const tokens = await login(t.app, { username: account.username, password: account.password, code: enterprise.code });
  return { A_ID: account.A_ID, token: tokens.access_token };
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
