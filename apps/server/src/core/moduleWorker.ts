import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread that runs the module `name` beside the caller (`from`: its import.meta.url): the
 * built `.js`, or, when the server runs from its TypeScript sources (tsx, vitest), the `.ts` through
 * tsx's loader.
 */
export function startModuleWorker(from: string, name: string, options: WorkerOptions = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), options);
  const source = JSON.stringify(new URL(`./${name}.ts`, from).href);
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); });`, {
    ...options,
    eval: true,
    execArgv: ['--conditions=development'],
  });
}
