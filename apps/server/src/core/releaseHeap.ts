import v8 from 'node:v8';
import vm from 'node:vm';

/** V8's gc extension: `gc({ type, execution })`; with `execution: 'async'` it answers a promise. */
type Collect = (options: { type: 'major'; execution: 'async' }) => Promise<void>;

let collect: Collect | null | undefined;

/**
 * V8's collector, reached once: the `--expose-gc` flag set at run time puts `gc` in contexts made
 * after it (a fresh `vm` context here), so the server needs no command-line flag. null where the
 * runtime refuses (the release is then skipped, never an error).
 */
function collector(): Collect | null {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const gc: unknown = vm.runInNewContext('gc');
      collect = typeof gc === 'function' ? (gc as Collect) : null;
    } catch {
      collect = null;
    }
  }
  return collect;
}

export interface HeapRelease {
  /** MiB of JavaScript heap in use before and after the collection. */
  beforeMiB: number;
  afterMiB: number;
  ms: number;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * One full collection now, for the end of a rare batch job (a user import of thousands of rows)
 * that leaves tens of MiB of garbage in the old generation. V8 would keep that garbage until the
 * heap reaches a limit set at up to four times the last live size, and the next import would add
 * its own on top (docs/decisions.md). Not for request paths: a full collection pauses the loop.
 * Undefined where the runtime has no collector to call.
 */
export function releaseHeap(): Promise<HeapRelease | undefined> {
  // Imports answered together share one collection: a second one right after would find nothing.
  running ??= collectNow().finally(() => {
    running = null;
  });
  return running;
}

let running: Promise<HeapRelease | undefined> | null = null;

async function collectNow(): Promise<HeapRelease | undefined> {
  const gc = collector();
  if (!gc) return undefined;
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  await gc({ type: 'major', execution: 'async' });
  return {
    beforeMiB: mib(before),
    afterMiB: mib(process.memoryUsage().heapUsed),
    ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
