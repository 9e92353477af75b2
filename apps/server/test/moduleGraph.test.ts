import fs from 'node:fs';
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

// The server's layout (docs/server-layout.md): one folder per API area under src/modules/, shared
// plumbing in src/core/, the state every instance shares in src/bus/, the hub on top. Modules reach
// each other only through `modules/<area>/index.ts`; folders import only in the directions below,
// and the folder graph of the whole server has no cycle.
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const modulesDir = path.join(src, 'modules');

/** `modules/<area>`, a folder (`core`, `hub`, ...), `config` or `appDeps`; app.ts, main.ts and createDeps.ts are `root`. */
function folderOf(file: string): string {
  const parts = path.relative(src, file).split(path.sep);
  if (parts[0] === 'modules') return `modules/${parts[1]}`;
  if (parts.length > 1) return parts[0] as string;
  const name = (parts[0] as string).replace(/\.ts$/, '');
  return name === 'config' || name === 'appDeps' ? name : 'root';
}

/** The rows of ALLOWED: every module is `modules`. */
const layerOf = (file: string) => (folderOf(file).startsWith('modules/') ? 'modules' : folderOf(file));

/**
 * Which folder may import which, from the bottom up (docs/server-layout.md "Rules"). A new arrow is
 * a decision: it goes here and into the document, and it may not close a cycle.
 */
const ALLOWED: Record<string, readonly string[]> = {
  http: [],
  config: ['http'],
  db: ['http'],
  tenancy: ['db'],
  bus: ['db'],
  auth: ['bus', 'config', 'db', 'http', 'tenancy'],
  core: ['auth', 'bus', 'db', 'http', 'tenancy'],
  live: ['bus', 'config', 'core', 'db'],
  appDeps: ['auth', 'config', 'core', 'db', 'live'],
  generic: ['auth', 'db', 'http', 'tenancy'],
  modules: ['appDeps', 'auth', 'bus', 'core', 'db', 'generic', 'http', 'tenancy'],
  video: ['appDeps', 'core', 'db', 'http', 'tenancy'],
  talk: ['appDeps', 'auth', 'bus', 'core', 'db', 'http', 'modules', 'tenancy', 'video'],
  terminals: ['appDeps', 'auth', 'bus', 'core', 'db', 'http', 'live', 'modules', 'talk', 'tenancy', 'video'],
  hub: ['appDeps', 'auth', 'bus', 'config', 'core', 'db', 'http', 'live'],
  root: [
    'appDeps',
    'auth',
    'bus',
    'config',
    'core',
    'db',
    'generic',
    'http',
    'hub',
    'live',
    'modules',
    'talk',
    'tenancy',
    'terminals',
  ],
};

/**
 * No file passes this many lines (STYLE.md: review past 300, split past 500); a longer one is split
 * by what it does.
 */
const MAX_LINES = 400;

const edges = importEdges(src);

describe('server module layout', () => {
  it('gives every module an index.ts that exports <area>Module', () => {
    const areas = fs.readdirSync(modulesDir).filter((name) => fs.statSync(path.join(modulesDir, name)).isDirectory());
    expect(areas.length).toBeGreaterThan(0);
    for (const area of areas) {
      const index = path.join(modulesDir, area, 'index.ts');
      expect(fs.existsSync(index), `${area}/index.ts`).toBe(true);
      expect(fs.readFileSync(index, 'utf8'), `${area}/index.ts`).toContain(`export const ${area}Module`);
    }
  });

  it('imports another module only through its index.ts', () => {
    const internal = edges
      .filter(({ file, target }) => folderOf(target).startsWith('modules/') && folderOf(target) !== folderOf(file))
      .filter(({ target }) => path.basename(target) !== 'index.ts')
      .map(({ file, target }) => `${path.relative(src, file)} -> ${path.relative(src, target)}`);
    expect(internal).toEqual([]);
  });

  it('places every folder in the table of allowed imports', () => {
    const folders = new Set(sourceFiles(src).map(layerOf));
    expect([...folders].filter((folder) => !(folder in ALLOWED))).toEqual([]);
  });

  it('imports only in the allowed directions', () => {
    expect(forbiddenImports(edges, layerOf, ALLOWED, src)).toEqual([]);
  });

  it('has no import cycle between folders, modules included', () => {
    expect(findCycle(folderGraph(edges, folderOf))).toBeNull();
  });

  it(`keeps every file under ${MAX_LINES} lines`, () => {
    const long = sourceFiles(src)
      .filter((file) => lineCount(file) > MAX_LINES)
      .map((file) => path.relative(src, file).split(path.sep).join('/'));
    expect(long).toEqual([]);
  });

  it('finds a cycle and a forbidden import when there is one (the checks themselves work)', () => {
    const graph = new Map([
      ['modules/a', new Set(['modules/b'])],
      ['modules/b', new Set(['modules/c'])],
      ['modules/c', new Set(['modules/a'])],
    ]);
    expect(findCycle(graph)).toEqual(['modules/a', 'modules/b', 'modules/c', 'modules/a']);
    const upward = [{ file: path.join(src, 'bus/eventBus.ts'), target: path.join(src, 'hub/hubServer.ts') }];
    expect(forbiddenImports(upward, layerOf, ALLOWED, src)).toEqual([
      'bus -> hub (bus/eventBus.ts -> hub/hubServer.ts)',
    ]);
  });
});
