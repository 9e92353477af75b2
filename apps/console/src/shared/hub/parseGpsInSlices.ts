/** The start of the hub's `pushMsg` invocation records with positions (the server writes them so). */
const PREFIXES = [
  ['GPSArray', '{"type":1,"target":"pushMsg","arguments":[{"type":"GPSArray","data":['],
  ['GPS', '{"type":1,"target":"pushMsg","arguments":[{"type":"GPS","data":['],
] as const;
const SUFFIX = ']}]}';
/**
 * Between two records of the data array. A JSON string cannot hold it (its `"` would be escaped),
 * so it only ever separates records; the server writes `U_ID` first in every GpsRecord.
 */
const SEPARATOR = '},{"U_ID":';

/** Characters parsed in one go: about a millisecond of `JSON.parse`. */
export const SLICE_CHARS = 256 * 1024;

/** Gives the event loop a turn (input, frames) before the next slice. */
export type Yield = () => Promise<void>;

/** A `pushMsg` with positions whose data is still being parsed, slice by slice. */
export interface SlicedGps {
  type: 'GPS' | 'GPSArray';
  /** The records, once every slice is parsed; rejects when the text is not valid JSON. */
  data: Promise<unknown[]>;
}

/**
 * If `record` (one hub record without its separator) is a `pushMsg` of `GPS` or `GPSArray`, parses
 * its records in slices of about `sliceChars`, yielding between slices once `budgetMs` has passed,
 * so a snapshot of 50,000 users (37 MB) never holds the main thread in one long task. Undefined for
 * any other record, which the caller parses as usual.
 */
export function parseGpsInSlices(
  record: string,
  yieldToPage: Yield,
  { sliceChars = SLICE_CHARS, budgetMs = 8 } = {},
): SlicedGps | undefined {
  const match = PREFIXES.find(([, prefix]) => record.startsWith(prefix));
  if (!match || !record.endsWith(SUFFIX)) return undefined;
  const [type, prefix] = match;
  const end = record.length - SUFFIX.length;
  const data = (async () => {
    const records: unknown[] = [];
    let started = performance.now();
    for (let from = prefix.length; from < end;) {
      const cut = from + sliceChars >= end ? -1 : record.indexOf(SEPARATOR, from + sliceChars);
      const to = cut === -1 || cut >= end ? end : cut + 1;
      const slice = JSON.parse(`[${record.slice(from, to)}]`) as unknown[];
      for (const item of slice) records.push(item);
      from = to + 1;
      if (from < end && performance.now() - started > budgetMs) {
        await yieldToPage();
        started = performance.now();
      }
    }
    return records;
  })();
  return { type, data };
}

/** The browser's own yield where it has one (Chromium), else a message-channel turn (no 4 ms clamp). */
export const yieldToPage: Yield = () => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
};
