import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lineCount, sourceFiles } from './importGraph.mjs';

// The 400-line limit (STYLE.md: review past 300, split past 500) over all of the repository's code:
// the apps' and packages' sources, their tests, the benches, the browser tests and these scripts.
// The server's and the console's layout tests check their src/ folders the same way; this one also
// reads what they do not: test files, bench/ and its support, e2e/. A longer file is split by what
// it does (or tests), never by trimming what it asserts.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['apps', 'packages', 'bench', 'e2e', 'scripts'];
const CODE = /\.(?:tsx?|mts|mjs)$/;
const MAX_LINES = 400;

const files = ROOTS.flatMap((dir) => sourceFiles(path.join(root, dir), CODE)).map((file) =>
  path.relative(root, file).split(path.sep).join('/'),
);

describe('file length', () => {
  it('reads tests, benches and browser tests, and nothing installed or built', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'apps/server/test/login.test.ts',
        'apps/console/src/shared/hub/HubController.test.ts',
        'packages/contract/test/positionBlock.test.ts',
        'bench/map.ts',
        'bench/support/startServer.ts',
        'e2e/tests/incident.e2e.ts',
        'scripts/test.mjs',
      ]),
    );
    expect(files.filter((file) => /(?:^|\/)(?:node_modules|dist)\//.test(file))).toEqual([]);
  });

  it(`keeps every file under ${MAX_LINES} lines`, () => {
    const long = files.filter((file) => lineCount(path.join(root, file)) > MAX_LINES);
    expect(long).toEqual([]);
  });
});
