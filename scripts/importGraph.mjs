// The import graph of a source folder, folded to its folders: what the layout tests of the server
// (apps/server/test/moduleGraph.test.ts) and the console (apps/console/test/layout.test.ts) check.
import fs from 'node:fs';
import path from 'node:path';

/** Folders that hold no source of ours: installed packages and build output. */
const NOT_SOURCE = new Set(['node_modules', 'dist']);

/** Every .ts and .tsx file under `dir` (or every file whose name matches `pattern`), outside node_modules and dist. */
export function sourceFiles(dir, pattern = /\.tsx?$/) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) ? [] : sourceFiles(full, pattern);
    return pattern.test(entry.name) ? [full] : [];
  });
}

/** The file a relative import names: `./a.js` is a.ts or a.tsx, a folder is its index. */
function resolveImport(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile()) ?? base;
}

/** Every relative import (static, re-export or dynamic, types included) of the files under `src`. */
export function importEdges(src) {
  return sourceFiles(src).flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
    return specs
      .map((spec) => ({ file, target: resolveImport(file, spec) }))
      .filter(({ target }) => !path.relative(src, target).startsWith('..'));
  });
}

/** Folder -> the folders it imports, leaving out imports inside a folder. */
export function folderGraph(edges, folderOf) {
  const graph = new Map();
  for (const { file, target } of edges) {
    const [from, to] = [folderOf(file), folderOf(target)];
    if (!graph.has(from)) graph.set(from, new Set());
    if (from !== to) graph.get(from).add(to);
  }
  return graph;
}

/** The first cycle of a graph, as a path `a -> b -> a`, or null. */
export function findCycle(graph) {
  const state = new Map();
  const stack = [];
  const visit = (node) => {
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

/** Imports a folder may not make: `from -> to (file -> target)` for every edge not in `allowed`. */
export function forbiddenImports(edges, folderOf, allowed, src) {
  return edges
    .filter(({ file, target }) => {
      const [from, to] = [folderOf(file), folderOf(target)];
      return from !== to && !(allowed[from] ?? []).includes(to);
    })
    .map(
      ({ file, target }) =>
        `${folderOf(file)} -> ${folderOf(target)} (${path.relative(src, file)} -> ${path.relative(src, target)})`,
    );
}

/** Lines of a file, counted as `wc -l` does. */
export function lineCount(file) {
  return (fs.readFileSync(file, 'utf8').match(/\n/g) ?? []).length;
}
