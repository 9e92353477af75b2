import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findCycle,
  folderGraph,
  forbiddenImports,
  importEdges,
  lineCount,
  sourceFiles,
} from '../../../scripts/importGraph.mjs';

// The console's layout (docs/console-layout.md): app/ composes everything and only main.tsx imports
// it; features use each other through their index.ts; shared/ serves them all and imports none of
// them. Folders import only in the directions below, and the folder graph has no cycle.
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** `features/<area>`, `shared/<part>`, a folder (`app`, `map`, `talk`, `i18n`), or `main` for main.tsx. */
function folderOf(file: string): string {
  const parts = path.relative(src, file).split(path.sep);
  if (parts.length === 1) return 'main';
  if (parts[0] === 'features' || parts[0] === 'shared') return `${parts[0]}/${parts[1]}`;
  return parts[0] as string;
}

/** The rows of ALLOWED: every feature is `features`. */
const layerOf = (file: string) => (folderOf(file).startsWith('features/') ? 'features' : folderOf(file));

const SHARED_ALL = [
  'shared/api',
  'shared/form',
  'shared/format',
  'shared/hub',
  'shared/list',
  'shared/pickers',
  'shared/routing',
  'shared/session',
  'shared/storage',
  'shared/ui',
];

/**
 * Which folder may import which, from the bottom up (docs/console-layout.md). A new arrow is a
 * decision: it goes here and into the document, and it may not close a cycle.
 */
const ALLOWED: Record<string, readonly string[]> = {
  'shared/ui': [],
  'shared/storage': [],
  'shared/format': [],
  'shared/routing': [],
  'shared/session': ['shared/routing'],
  i18n: ['shared/storage'],
  'shared/api': ['i18n', 'shared/storage', 'shared/ui'],
  'shared/form': ['i18n', 'shared/api', 'shared/ui'],
  'shared/list': ['i18n', 'shared/api', 'shared/format', 'shared/storage', 'shared/ui'],
  'shared/pickers': ['i18n', 'shared/api'],
  'shared/hub': ['i18n', 'shared/api', 'shared/storage'],
  map: ['i18n', 'shared/api', 'shared/hub'],
  talk: ['i18n', ...SHARED_ALL],
  features: ['features', 'i18n', 'map', 'talk', ...SHARED_ALL],
  app: ['features', 'i18n', 'map', 'talk', ...SHARED_ALL],
  main: ['app', 'i18n'],
};

/**
 * Arrows still closing a cycle, left out of the cycle check until they are gone; the list may only
 * shrink (the check fails when an arrow here no longer exists).
 */
const KNOWN_CYCLES: string[] = [];

/** No file passes this many lines (docs/console-layout.md): a longer one is split by what it does. */
const MAX_LINES = 400;

// Tests may render through the app's providers or read a feature's keys, so only the code
// that ships is checked.
const edges = importEdges(src).filter(({ file }) => !/\.test\.tsx?$/.test(file));

describe('console layout', () => {
  it('places every folder in the table of allowed imports', () => {
    const folders = new Set(sourceFiles(src).map(layerOf));
    expect([...folders].filter((folder) => !(folder in ALLOWED))).toEqual([]);
  });

  it('imports only in the allowed directions; app/ only from main.tsx', () => {
    expect(forbiddenImports(edges, layerOf, ALLOWED, src)).toEqual([]);
  });

  it('has no import cycle between folders, features included', () => {
    const graph = folderGraph(edges, folderOf);
    const left = KNOWN_CYCLES.map((arrow) => arrow.split(' -> ') as [string, string]);
    expect(
      left.filter(([from, to]) => !graph.get(from)?.has(to)).map((arrow) => arrow.join(' -> ')),
      'gone now: take off KNOWN_CYCLES',
    ).toEqual([]);
    for (const [from, to] of left) graph.get(from)?.delete(to);
    expect(findCycle(graph)).toBeNull();
  });

  it(`keeps every file under ${MAX_LINES} lines`, () => {
    const long = sourceFiles(src)
      .filter((file) => lineCount(file) > MAX_LINES)
      .map((file) => path.relative(src, file).split(path.sep).join('/'));
    expect(long).toEqual([]);
  });

  it('reports a feature that imports app/ (the check itself works)', () => {
    const upward = [{ file: path.join(src, 'features/users/index.ts'), target: path.join(src, 'app/App.tsx') }];
    expect(forbiddenImports(upward, layerOf, ALLOWED, src)).toEqual([
      'features -> app (features/users/index.ts -> app/App.tsx)',
    ]);
  });
});
