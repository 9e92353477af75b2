// The tile worker (offlineTiles.ts): cuts the OFFLINE basemap's tiles away from the event loop, in a
// heap of its own whose size is capped.
import { parentPort } from 'node:worker_threads';
import { TileCutter } from './tileCutter.js';

/** Asks the worker for one tile. */
export interface TileJob {
  id: number;
  z: number;
  x: number;
  y: number;
}

/** The worker's answer: the tile's bytes, or why it could not be cut. */
export type TileAnswer = { id: number; body: Uint8Array } | { id: number; error: string };

const cutter = new TileCutter();

parentPort?.on('message', ({ id, z, x, y }: TileJob) => {
  let answer: TileAnswer;
  try {
    // A copy the size of the tile: the encoder's buffer is larger, and the copy's memory moves over.
    answer = { id, body: cutter.cut(z, x, y).slice() };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer, 'body' in answer ? [answer.body.buffer as ArrayBuffer] : []);
});
