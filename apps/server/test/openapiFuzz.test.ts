// postgres: hostile input into every route's queries.
import { describe, expect, it } from 'vitest';
import { runFuzz } from './fuzz/runFuzz.js';
import { useTestApp } from './useTestApp.js';

/**
 * Issue 16: requests generated from the OpenAPI document. FUZZ_SEED replays a run (the seed is
 * printed); FUZZ_COUNT changes its size (npm run bench sends 100,000 through bench/fuzz.ts).
 * 20,000 on SQLite; 5,000 of the same sequence on PostgreSQL (every route's queries many times over
 * in that dialect), which took 10 minutes for 20,000 there on a loaded 2-core machine (issue 50).
 */
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const count = Number(process.env.FUZZ_COUNT ?? (process.env.TEST_DATABASE_URL ? 5_000 : 20_000));

const t = useTestApp();

describe('OpenAPI fuzz', () => {
  it(`survives ${count} generated requests (seed ${seed}): no 5xx, no stack or SQL text, no slow answer, no partial write`, async () => {
    process.stdout.write(`openapi fuzz: seed ${seed}, ${count} requests (replay with FUZZ_SEED=${seed})\n`);
    const report = await runFuzz(t, { count, seed });
    process.stdout.write(`openapi fuzz: ${JSON.stringify({ ...report, problems: report.problems.length })}\n`);
    expect(report.problems).toEqual([]);
    expect(report.requests).toBe(count);
  }, 600_000);
});
