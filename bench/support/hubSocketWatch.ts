// The hub's WebSocket as the bench sees it from outside the page. The console opens it in its hub
// worker, where no init script reaches: Playwright reports a worker's sockets and frames as the page's.
// The console speaks MessagePack (binary frames, positions as GPSBlock messages) or JSON (text frames).
import { GPS_BLOCK_TYPE, decodePositionBlock } from '@intercom/contract';
import { decode } from '@msgpack/msgpack';
import type { Page, WebSocket } from 'playwright-core';

/** One GPS push while timing: when the bench got it (ms since the epoch) and the fix times it carried. */
export interface HubArrival {
  at: number;
  times: number[];
}

export interface HubSocketWatch {
  /** Bytes of the frames carrying the GPSArray snapshot. */
  snapshotBytes: number;
  /** While true, every GPS push's fix times are recorded in `arrivals`. */
  timing: boolean;
  arrivals: HubArrival[];
  /** First time of each step, ms since the epoch: socket created, FuncGPS sent, first frame, snapshot. */
  marks: Record<string, number>;
  /** When a hub socket closed (ms since the epoch). */
  closes: number[];
  /** Bytes of every frame received while `timing` (what the page's hub connection received). */
  bytesWhileTiming: number;
  /** The protocol of the last hub socket's frames. */
  protocol: 'json' | 'messagepack' | 'unknown';
}

/** A binary frame's MessagePack messages (after the handshake answer `{}` + 0x1E, when it leads). */
function messagesOf(bytes: Buffer): unknown[] {
  let offset = bytes[0] === 0x7b && bytes[1] === 0x7d && bytes[2] === 0x1e ? 3 : 0;
  const messages: unknown[] = [];
  while (offset < bytes.length) {
    let size = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[offset++]!;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    messages.push(decode(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  return messages;
}

/** The GPSBlock arguments of a frame's `pushMsg` invocations. */
function gpsBlocksOf(bytes: Buffer): { full: boolean; block: Uint8Array }[] {
  const blocks: { full: boolean; block: Uint8Array }[] = [];
  for (const message of messagesOf(bytes)) {
    const [type, , , target, args] = message as [number, unknown, unknown, string, unknown[]];
    if (type !== 1 || target !== 'pushMsg') continue;
    const argument = args[0] as { type?: string; data?: { full: boolean; block: Uint8Array } };
    if (argument?.type === GPS_BLOCK_TYPE && argument.data) blocks.push(argument.data);
  }
  return blocks;
}

const RECORD_SEPARATOR = '\u001e';

/**
 * Watches the page's hub sockets (`/FuncService`). Times are the bench's clock when Playwright
 * reported the frame: a little after the browser got it, so a fix seems to reach the page later
 * than it did (the fix-to-frame figure can only be worse for it). Scanning the frames costs the
 * bench's process, not the page.
 */
export function watchHubSocket(page: Page): HubSocketWatch {
  const watch: HubSocketWatch = {
    snapshotBytes: 0,
    timing: false,
    arrivals: [],
    marks: {},
    closes: [],
    bytesWhileTiming: 0,
    protocol: 'unknown',
  };
  const mark = (name: string) => {
    watch.marks[name] ??= Date.now();
  };
  page.on('websocket', (socket: WebSocket) => {
    if (!socket.url().includes('/FuncService')) return;
    mark('hubSocketOpened');
    socket.on('close', () => watch.closes.push(Date.now()));
    socket.on('framesent', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString('latin1');
      if (text.includes('FuncGPS')) mark('funcGpsSent');
    });
    socket.on('framereceived', ({ payload }) => {
      mark('hubFirstMessage');
      if (watch.timing)
        watch.bytesWhileTiming += typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
      if (typeof payload !== 'string') {
        watch.protocol = 'messagepack';
        takeBinary(watch, payload, mark);
        return;
      }
      watch.protocol = 'json';
      if (payload.includes('"GPSArray"')) {
        watch.snapshotBytes += Buffer.byteLength(payload, 'utf8');
        mark('snapshotFrameArrived');
        return;
      }
      if (!watch.timing || !payload.includes('"type":"GPS"')) return;
      const at = Date.now();
      // Every fix of the GPS records (not the OnlineUser records a frame may also carry).
      const times: number[] = [];
      for (const record of payload.split(RECORD_SEPARATOR)) {
        if (!record.includes('"type":"GPS"')) continue;
        for (const match of record.matchAll(/"time":(\d+)/g)) times.push(Number(match[1]));
      }
      watch.arrivals.push({ at, times });
    });
  });
  return watch;
}

function takeBinary(watch: HubSocketWatch, payload: Buffer, mark: (name: string) => void): void {
  const blocks = gpsBlocksOf(payload);
  if (blocks.some((block) => block.full)) {
    watch.snapshotBytes += payload.length;
    mark('snapshotFrameArrived');
    return;
  }
  if (!watch.timing || blocks.length === 0) return;
  const at = Date.now();
  const times: number[] = [];
  for (const { block } of blocks) times.push(...decodePositionBlock(block).times);
  watch.arrivals.push({ at, times });
}

/** Negotiate answers without the Binary transfer format: the hub's clients speak JSON. */
export async function offerTextOnly(page: Page): Promise<void> {
  await page.route('**/FuncService/negotiate**', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { availableTransports?: { transferFormats: string[] }[] };
    for (const transport of body.availableTransports ?? []) transport.transferFormats = ['Text'];
    await route.fulfill({ response, json: body });
  });
}
