import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFuzz } from './fuzz/runFuzz.js';
import { buildTestApp, type TestApp } from './helper.js';

/**
 * Issue 16: requests generated from the OpenAPI document. FUZZ_SEED replays a run (the seed is
 * printed); FUZZ_COUNT changes its size (npm run bench sends 100,000 through bench/fuzz.ts).
 */
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const count = Number(process.env.FUZZ_COUNT ?? 20_000);

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('OpenAPI fuzz', () => {
  it(`survives ${count} generated requests (seed ${seed}): no 5xx, no stack or SQL text, no slow answer, no partial write`, async () => {
    process.stdout.write(`openapi fuzz: seed ${seed}, ${count} requests (replay with FUZZ_SEED=${seed})\n`);
    const report = await runFuzz(t, { count, seed });
    process.stdout.write(`openapi fuzz: ${JSON.stringify({ ...report, problems: report.problems.length })}\n`);
    expect(report.problems).toEqual([]);
    expect(report.requests).toBe(count);
  }, 600_000);
});
