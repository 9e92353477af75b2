import { Code } from '@intercom/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { login, type TestApp } from '../helper.js';
import { tenant } from '../directoryFixtures.js';
import { requestFor, type FuzzRequest } from './fuzzRequests.js';
import { operationsOf, type FuzzOperation } from './openapiOperations.js';

/** What one run found; `problems` empty means the server held. */
export interface FuzzReport {
  seed: number;
  requests: number;
  operations: number;
  statuses: Record<string, number>;
  slowestMs: number;
  problems: string[];
}

/** Stack frames, our source paths and database error text: none may reach a client. */
const LEAK =
  /\n\s+at \S.*:\d+:\d+|node_modules|\/src\/\S+\.[jt]s|SQLITE_|SqliteError|syntax error at|violates .* constraint|relation "|no such (table|column)|UNIQUE constraint|duplicate key value/i;

/** Tables a failed request may write by design: the login's nonce and failure log, the fuzzer's own logins. */
const WRITTEN_BY_FAILURES: Record<string, string[]> = {
  '/api/UAuth/Login': ['login_nonce', 'sys_log'],
};

const sessionOver: readonly number[] = [Code.TokenMissing, Code.TokenExpired, Code.SessionReplaced, Code.SessionEnded];

async function baseTables(t: TestApp): Promise<string[]> {
  const tables = await t.db.introspection.getTables();
  return tables.filter((table) => !table.isView).map((table) => table.name);
}

/** Row counts of every table in one statement. */
async function rowCounts(t: TestApp, tables: string[]): Promise<Record<string, number>> {
  const columns = tables.map((name) => sql`(SELECT count(*) FROM ${sql.table(name)}) AS ${sql.ref(name)}`);
  const result = await sql<Record<string, number | string>>`SELECT ${sql.join(columns)}`.execute(t.db);
  const row = result.rows[0] ?? {};
  return Object.fromEntries(tables.map((name) => [name, Number(row[name])]));
}

function failed(status: number, body: string): boolean {
  if (status >= 400) return true;
  try {
    const json = JSON.parse(body) as { BaseResult?: { Code?: number }; Code?: number };
    const code = json.BaseResult?.Code ?? json.Code;
    return code !== undefined && code !== Code.Success;
  } catch {
    return false;
  }
}

/**
 * Sends `count` requests generated from the server's own OpenAPI document (every operation, wrong
 * types, missing and extra fields, odd and huge strings, NUL, deep JSON, prototype keys, wrong content
 * types, bad path ids) as the admin of a fresh enterprise, and checks every answer: no 5xx, no stack
 * or SQL text, under 5 s, and after a failed request the row count of every table unchanged.
 */
export async function runFuzz(t: TestApp, options: { count: number; seed: number }): Promise<FuzzReport> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  const operations = operationsOf(doc);
  const tables = await baseTables(t);
  let actor = await tenant(t);
  let counts = await rowCounts(t, tables);
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    operations: operations.length,
    statuses: {},
    slowestMs: 0,
    problems: [],
  };
  const problem = (request: FuzzRequest, what: string) => {
    if (report.problems.length < 20)
      report.problems.push(
        `${what}: ${request.method} ${request.url.slice(0, 200)} ${request.headers['content-type'] ?? ''} ${(request.payload ?? '').slice(0, 200)}`,
      );
  };

  const send = async (operation: FuzzOperation, request: FuzzRequest): Promise<void> => {
    const start = performance.now();
    const res = await t.app.inject({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${actor.token}` },
    });
    const ms = performance.now() - start;
    report.requests += 1;
    report.slowestMs = Math.max(report.slowestMs, ms);
    report.statuses[res.statusCode] = (report.statuses[res.statusCode] ?? 0) + 1;
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode >= 500) problem(request, `status ${res.statusCode} ${res.body.slice(0, 200)}`);
    if (ms > 5000) problem(request, `answered after ${Math.round(ms)} ms`);
    if (/json|text|html|csv/.test(type) && LEAK.test(res.body)) problem(request, `leaks ${LEAK.exec(res.body)?.[0]}`);
    const after = await rowCounts(t, tables);
    if (failed(res.statusCode, res.body)) {
      const allowed = WRITTEN_BY_FAILURES[operation.path] ?? [];
      const changed = tables.filter((name) => after[name] !== counts[name] && !allowed.includes(name));
      if (changed.length > 0) problem(request, `failed (${res.statusCode}) but changed ${changed.join(', ')}`);
    }
    counts = after;
    const code = (() => {
      try {
        return (JSON.parse(res.body) as { BaseResult?: { Code?: number } }).BaseResult?.Code;
      } catch {
        return undefined;
      }
    })();
    // The fuzz may log itself out, or change its own password or enterprise: sign in again, or start over.
    if (code !== undefined && sessionOver.includes(code)) {
      try {
        actor = {
          ...actor,
          token: (await login(t.app, { username: actor.username, password: actor.password, code: actor.code }))
            .access_token,
        };
      } catch {
        actor = await tenant(t);
      }
      counts = await rowCounts(t, tables);
    }
  };

  const arbitrary = fc
    .constantFrom(...operations)
    .chain((operation) => requestFor(operation).map((request) => ({ operation, request })));
  await fc.assert(
    fc.asyncProperty(arbitrary, async ({ operation, request }) => {
      await send(operation, request);
    }),
    { numRuns: options.count, seed: options.seed, endOnFailure: true },
  );
  return report;
}
