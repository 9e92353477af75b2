import { execFileSync } from 'node:child_process';
import { BENCH_PASSWORD, percentile, startServer } from './support/startServer.js';
import { login } from './support/login.js';

/**
 * Figures of issue 4: adding 5,000 members to a channel in one CMemberChange call, and
 * QueryCMember on that channel (p50/p99, paging and search). Runs the built server on a fresh
 * SQLite data directory, or on PostgreSQL when DATABASE_URL is set.
 */
const MEMBERS = 5000;

interface Envelope<T = unknown> {
  BaseResult: { Code: number; Message: string };
  BaseData?: T;
  Data?: unknown[];
  Total?: number;
}

async function api<T = unknown>(url: string, token: string, path: string, body?: unknown): Promise<Envelope<T>> {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const result = (await response.json()) as Envelope<T>;
  if (result.BaseResult.Code !== 8888)
    throw new Error(`${path}: ${result.BaseResult.Code} ${result.BaseResult.Message}`);
  return result;
}

/** A sub-enterprise with room for the users, filled through BatchAdd (99 per call). */
async function populate(url: string, token: string): Promise<{ E_ID: number; uids: number[] }> {
  const enterprise = await api<{ E_ID: number }>(url, token, '/api/Enterprise/Save', {
    E_Code: `BENCH${Date.now()}`,
    E_Name: 'Channel bench',
    Quota: MEMBERS + 1000,
  });
  const E_ID = enterprise.BaseData?.E_ID as number;
  const uids: number[] = [];
  for (let start = 0; uids.length < MEMBERS; start += 99) {
    const count = Math.min(99, MEMBERS - uids.length);
    const made = await api<{ users: { UserID: number }[] }>(url, token, '/api/UserInfo/BatchAdd', {
      E_ID,
      prefix: 'bench',
      start: String(17_000_000_000 + start),
      count,
      Password: 'bench-123',
    });
    uids.push(...(made.BaseData?.users ?? []).map((u) => u.UserID));
  }
  return { E_ID, uids };
}

async function timeMemberAdds(url: string, token: string, CID: number, uids: number[], runs: number) {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const result = await api<{ added: number }>(url, token, '/api/THChannel/CMemberChange', {
      cid: CID,
      action: 'add',
      uids,
    });
    times.push(performance.now() - started);
    if (result.BaseData?.added !== uids.length) throw new Error(`added ${String(result.BaseData?.added)}`);
    if (run < runs - 1) await api(url, token, '/api/THChannel/CMemberChange', { cid: CID, action: 'remove', uids });
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    add_5000_members_ms_runs: times.map((t) => Math.round(t)),
    add_5000_members_ms_median: Math.round(sorted[Math.floor(runs / 2)] ?? 0),
  };
}

async function timeQueries(url: string, token: string, label: string, paths: () => string, count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const result = await api(url, token, paths());
    times.push(performance.now() - started);
    if ((result.Total ?? 0) === 0) throw new Error(`${label}: empty`);
  }
  times.sort((a, b) => a - b);
  return {
    [`${label}_samples`]: count,
    [`${label}_p50_ms`]: percentile(times, 50),
    [`${label}_p99_ms`]: percentile(times, 99),
  };
}

const server = await startServer();
const figures: Record<string, unknown> = {
  machine: `${execFileSync('nproc').toString().trim()} cores, node ${process.version}`,
  database: process.env.DATABASE_URL ? 'postgres' : 'sqlite',
};
try {
  const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
  const { E_ID, uids } = await populate(server.url, token);
  const channel = await api<{ CID: number }>(server.url, token, '/api/THChannel/SaveChannel', {
    eid: E_ID,
    cname: 'bench',
  });
  const CID = channel.BaseData?.CID as number;
  Object.assign(figures, await timeMemberAdds(server.url, token, CID, uids, 3));
  const pages = MEMBERS / 10;
  Object.assign(
    figures,
    await timeQueries(
      server.url,
      token,
      'query_cmember_page',
      () => `/api/THChannel/QueryCMember?cid=${CID}&pageSize=10&pageIndex=${Math.floor(Math.random() * pages)}`,
      500,
    ),
    await timeQueries(
      server.url,
      token,
      'query_cmember_search',
      () =>
        `/api/THChannel/QueryCMember?cid=${CID}&pageSize=10&search=1700000${String(Math.floor(Math.random() * 50)).padStart(2, '0')}`,
      300,
    ),
    await timeQueries(
      server.url,
      token,
      'query_cmember_by_name_desc',
      () =>
        `/api/THChannel/QueryCMember?cid=${CID}&pageSize=50&orderField=UserName&desc=true&pageIndex=${Math.floor(Math.random() * 100)}`,
      200,
    ),
  );
} finally {
  await server.stop();
}
process.stdout.write(`${JSON.stringify({ bench: 'channels', ...figures }, null, 2)}\n`);
