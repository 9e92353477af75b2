/** An import of `file` that names `target` (both absolute paths). */
export interface ImportEdge {
  file: string;
  target: string;
}

/** Every .ts and .tsx file under `dir` (or every file whose name matches `pattern`), outside node_modules and dist. */
export function sourceFiles(dir: string, pattern?: RegExp): string[];
/** Every relative import (static, re-export or dynamic, types included) of the files under `src`. */
export function importEdges(src: string): ImportEdge[];
/** Folder -> the folders it imports, leaving out imports inside a folder. */
export function folderGraph(edges: ImportEdge[], folderOf: (file: string) => string): Map<string, Set<string>>;
/** The first cycle of a graph, as a path `a -> b -> a`, or null. */
export function findCycle(graph: Map<string, Set<string>>): string[] | null;
/** Imports a folder may not make: `from -> to (file -> target)` for every edge not in `allowed`. */
export function forbiddenImports(
  edges: ImportEdge[],
  folderOf: (file: string) => string,
  allowed: Record<string, readonly string[]>,
  src: string,
): string[];
/** Lines of a file, counted as `wc -l` does. */
export function lineCount(file: string): number;
