import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The server's layout (docs/server-layout.md): one folder per API area under src/modules/, shared
// plumbing in src/core/. Modules reach each other only through `modules/<area>/index.ts`, and the
// folder-level import graph has no cycles.
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const modulesDir = path.join(src, 'modules');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every relative import (static, re-export or dynamic, types included) as [from file, to file]. */
function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)];
  return found.map((m) => path.resolve(path.dirname(file), (m[1] as string).replace(/\.js$/, '.ts')));
}

/** `modules/<area>` or `core`, `realtime`, ... for a file under src/. */
function folderOf(file: string): string {
  const parts = path.relative(src, file).split(path.sep);
  return parts[0] === 'modules' ? `modules/${parts[1]}` : (parts[0] as string);
}

const edges = sourceFiles(src).flatMap((file) => imports(file).map((target) => ({ file, target })));

/** The first cycle in the folder graph, as a path `a -> b -> a`, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

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

  it('keeps core/ free of module imports', () => {
    const fromCore = edges
      .filter(({ file, target }) => folderOf(file) === 'core' && folderOf(target).startsWith('modules/'))
      .map(({ file, target }) => `${path.relative(src, file)} -> ${path.relative(src, target)}`);
    expect(fromCore).toEqual([]);
  });

  it('has no import cycle between modules', () => {
    const graph = new Map<string, Set<string>>();
    for (const { file, target } of edges) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (!from.startsWith('modules/') || !to.startsWith('modules/') || from === to) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
    expect(findCycle(graph)).toBeNull();
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['modules/a', new Set(['modules/b'])],
      ['modules/b', new Set(['modules/c'])],
      ['modules/c', new Set(['modules/a'])],
    ]);
    expect(findCycle(graph)).toEqual(['modules/a', 'modules/b', 'modules/c', 'modules/a']);
  });
});
