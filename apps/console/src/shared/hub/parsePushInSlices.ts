/**
 * The hub records that can be long (a list per user), as the server writes them: the list's
 * opening (with what comes before it, e.g. the online count), and the text after it.
 */
const LONG_RECORDS = [
  {
    opening: /^\{"type":1,"target":"pushMsg","arguments":\[\{"type":"(GPSArray|GPS|OnlineUser)","data":\[/,
    closing: ']}]}',
    target: 'pushMsg',
    build: (list: unknown[]): unknown => list,
  },
  {
    opening:
      /^\{"type":1,"target":"pushNotify","arguments":\[\{"type":"(Online|OnlineChange)","data":\{"count":(\d+),(?:"delta":(-?\d+),)?"users":\[/,
    closing: ']}}]}',
    target: 'pushNotify',
    build: (users: unknown[], match: RegExpExecArray): unknown => ({
      count: Number(match[2]),
      ...(match[3] === undefined ? {} : { delta: Number(match[3]) }),
      users,
    }),
  },
] as const;

/**
 * Between two entries of those lists. A JSON string cannot hold it (its `"` would be escaped), so it
 * only ever separates entries; the server writes `U_ID` first in GpsRecord and OnlineUser.
 */
const SEPARATOR = '},{"U_ID":';

/** Characters parsed in one go: about a millisecond of `JSON.parse`. */
export const SLICE_CHARS = 256 * 1024;

/** Gives the event loop a turn (input, frames) before the next slice. */
export type Yield = () => Promise<void>;

/** The argument of a long `pushMsg` or `pushNotify` whose data is still being parsed, slice by slice. */
export interface SlicedPush {
  target: 'pushMsg' | 'pushNotify';
  type: string;
  /** The message's data once every slice is parsed; rejects when the text is not valid JSON. */
  data: Promise<unknown>;
}

/** The entries of the JSON list between `start` and `end` of `text`, parsed slice by slice. */
async function parseList(
  text: string,
  start: number,
  end: number,
  yieldToPage: Yield,
  { sliceChars, budgetMs }: { sliceChars: number; budgetMs: number },
): Promise<unknown[]> {
  const entries: unknown[] = [];
  let started = performance.now();
  for (let from = start; from < end;) {
    const cut = from + sliceChars >= end ? -1 : text.indexOf(SEPARATOR, from + sliceChars);
    const to = cut === -1 || cut >= end ? end : cut + 1;
    const slice = JSON.parse(`[${text.slice(from, to)}]`) as unknown[];
    for (const entry of slice) entries.push(entry);
    from = to + 1;
    if (from < end && performance.now() - started > budgetMs) {
      await yieldToPage();
      started = performance.now();
    }
  }
  return entries;
}

/**
 * If `record` (one hub record without its separator) is a push with a list per user (positions,
 * online users), parses the list in slices of about `sliceChars`, yielding between slices once
 * `budgetMs` has passed, so a snapshot of 50,000 users (37 MB) never holds the main thread in one
 * long task. Undefined for any other record, which the caller parses as usual.
 */
export function parsePushInSlices(
  record: string,
  yieldToPage: Yield,
  { sliceChars = SLICE_CHARS, budgetMs = 8 } = {},
): SlicedPush | undefined {
  for (const shape of LONG_RECORDS) {
    const match = shape.opening.exec(record);
    if (!match || !record.endsWith(shape.closing)) continue;
    const end = record.length - shape.closing.length;
    const list = parseList(record, match[0].length, end, yieldToPage, { sliceChars, budgetMs });
    return { target: shape.target, type: match[1]!, data: list.then((entries) => shape.build(entries, match)) };
  }
  return undefined;
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
