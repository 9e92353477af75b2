import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { root } from './startServer.js';

/**
 * Spawns a bench helper under tsx; resolves each JSON line it prints through `onLine`.
 * BENCH_HELPER_NODE_ARGS (space-separated) go to its node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
 */
export function helper(script: string, args: string[], onLine: (value: Record<string, unknown>) => void): ChildProcess {
  // node --import tsx (not the tsx CLI, which forks): the child's pid is the process doing the work.
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_HELPER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--conditions=development',
      '--import',
      'tsx',
      path.join(root, 'bench/support', script),
      ...args,
    ],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line.startsWith('{')) onLine(JSON.parse(line) as Record<string, unknown>);
  });
  return child;
}
