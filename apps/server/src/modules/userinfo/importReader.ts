import type { Worker } from 'node:worker_threads';
import { UserImportKeys, UserImportLimits } from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../appDeps.js';
import { startModuleWorker } from '../../core/moduleWorker.js';
import { AppError } from '../../http/AppError.js';
import { readLimits, type ImportRow } from './importParse.js';
import type { ImportAnswer, ImportJob, NextRows } from './importWorker.js';

/** A job's end: all its rows, or the worker's refusal or failure. */
type Outcome = { rows: ImportRow[] } | Exclude<ImportAnswer, { last: boolean }>;

/** The reader's young generation: its rows outlive a scavenge or two, the parsers' garbage does not. */
const YOUNG_GENERATION_MB = 16;

/**
 * Reads import files (importParse.ts) in worker threads whose heap is capped at
 * IMPORT_WORKER_HEAP_MB: the event loop stays free while a big file is read, and a file that needs
 * more memory than that ends its worker, not the server (answered userImport.file_too_complex).
 * Each file gets a worker of its own that ends with its answer, so its memory goes back to the
 * system before the import hashes and writes (a worker kept for the next file held 25-40 MB).
 * Nothing is written to disk.
 */
export class ImportReader {
  private readonly running = new Set<Worker>();
  private closed = false;

  constructor(private readonly settings: AppDeps['config']['imports']) {}

  async read(body: Buffer, log: Pick<FastifyBaseLogger, 'warn'>): Promise<ImportRow[]> {
    if (body.length === 0) throw AppError.field('file', UserImportKeys.empty);
    if (body.length > UserImportLimits.maxBytes) throw AppError.field('file', UserImportKeys.fileTooLarge);
    if (this.closed) throw new Error('the import reader is closed');
    // A copy of its own, so its memory can move to the worker (the request's may be a pooled slab).
    const copy = new Uint8Array(body.length);
    copy.set(body);
    const worker = startModuleWorker(import.meta.url, 'importWorker', {
      resourceLimits: {
        maxOldGenerationSizeMb: this.settings.workerHeapMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
    });
    this.running.add(worker);
    let answer: Outcome;
    try {
      answer = await ask(worker, { body: copy, limits: readLimits(this.settings) });
    } catch (error) {
      log.warn({ err: error, bytes: body.length }, 'import worker ended before answering');
      throw AppError.field('file', UserImportKeys.fileTooComplex);
    } finally {
      this.running.delete(worker);
      await worker.terminate();
    }
    if ('refused' in answer) throw AppError.field('file', answer.refused);
    if ('failed' in answer) {
      // A parser error the checks did not foresee: the file is unreadable, and the log says why.
      log.warn({ error: answer.failed, bytes: body.length }, 'import file failed to parse');
      throw AppError.field('file', UserImportKeys.fileUnreadable);
    }
    return answer.rows;
  }

  /** Ends the workers still reading (their imports fail); no new one starts. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running].map((worker) => worker.terminate()));
  }
}

/**
 * Sends one job; the answer (the rows of all its messages together), or a rejection when the worker
 * fails or ends first.
 */
function ask(worker: Worker, job: ImportJob): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const rows: ImportRow[] = [];
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (answer: ImportAnswer) => {
      if ('rows' in answer) {
        for (const row of answer.rows) rows.push(row);
        if (!answer.last) return void worker.postMessage('next' satisfies NextRows);
        done();
        resolve({ rows });
        return;
      }
      done();
      resolve(answer);
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`the import worker exited with ${code}`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job, [job.body.buffer as ArrayBuffer]);
  });
}
