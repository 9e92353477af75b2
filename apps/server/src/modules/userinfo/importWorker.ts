// The import worker (importReader.ts): reads one import file away from the event loop, in a heap of
// its own whose size is capped, and ends with it.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../http/AppError.js';
import { parseImportFile, type ImportRow, type ReadLimits } from './importParse.js';

/** One file (its memory moved to the worker) and what reading it may cost. */
export interface ImportJob {
  body: Uint8Array;
  limits: ReadLimits;
}

/**
 * Rows, ROWS_PER_MESSAGE at a time, the next sent when the server asks for it (NextRows), the last
 * saying so; or the key the file is refused with; or an error the file should not have caused.
 */
export type ImportAnswer = { rows: ImportRow[]; last: boolean } | { refused: string } | { failed: string };

/** What the server sends for the next message of rows. */
export type NextRows = 'next';

/**
 * Rows a message carries. The server takes each message apart on its event loop in one go (20,000
 * rows took 30-70 ms), and asks for the next one only then, so other requests are served between.
 */
const ROWS_PER_MESSAGE = 1000;

async function answer({ body, limits }: ImportJob): Promise<ImportAnswer[]> {
  try {
    const rows = await parseImportFile(Buffer.from(body.buffer, body.byteOffset, body.byteLength), limits);
    const answers: ImportAnswer[] = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) {
      answers.push({ rows: rows.slice(i, i + ROWS_PER_MESSAGE), last: i + ROWS_PER_MESSAGE >= rows.length });
    }
    return answers;
  } catch (error) {
    if (error instanceof AppError) return [{ refused: error.message }];
    return [{ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) }];
  }
}

let waiting: ImportAnswer[] = [];
const sendNext = () => {
  const message = waiting.shift();
  if (message) parentPort?.postMessage(message);
};

parentPort?.on('message', (message: ImportJob | NextRows) => {
  if (message === 'next') return sendNext();
  void answer(message).then((answers) => {
    waiting = answers;
    sendNext();
  });
});
