// OpenAPI fuzz at bench size (issue 16): 100,000 generated requests against an in-process server on
// SQLite (or PostgreSQL with TEST_DATABASE_URL), the same checks as apps/server/test/openapiFuzz.test.ts.
//   npx tsc -b packages/contract packages/media apps/server && npx tsx bench/fuzz.ts
// FUZZ_COUNT (100000), FUZZ_SEED (a fixed seed; printed, replay with it). Prints JSON; exits 1 on a problem.
import { runFuzz } from '../apps/server/test/fuzz/runFuzz.js';
import { buildTestApp } from '../apps/server/test/helper.js';

const count = Number(process.env.FUZZ_COUNT ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? 20261124);

const t = await buildTestApp();
try {
  const start = performance.now();
  const report = await runFuzz(t, { count, seed });
  const seconds = (performance.now() - start) / 1000;
  const result = {
    bench: 'openapi-fuzz',
    database: t.dialect,
    ...report,
    seconds: Math.round(seconds),
    perSecond: Math.round(count / seconds),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (report.problems.length > 0) process.exitCode = 1;
} finally {
  await t.close();
}
