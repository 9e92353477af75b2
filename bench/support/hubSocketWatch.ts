// The hub's WebSocket as the bench sees it from outside the page. The console opens it in its hub
// worker, where no init script reaches: Playwright reports a worker's sockets and frames as the page's.
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
}

const RECORD_SEPARATOR = '\u001e';

/**
 * Watches the page's hub sockets (`/FuncService`). Times are the bench's clock when Playwright
 * reported the frame: a little after the browser got it, so a fix seems to reach the page later
 * than it did (the fix-to-frame figure can only be worse for it). Scanning the frames costs the
 * bench's process, not the page.
 */
export function watchHubSocket(page: Page): HubSocketWatch {
  const watch: HubSocketWatch = { snapshotBytes: 0, timing: false, arrivals: [], marks: {}, closes: [] };
  const mark = (name: string) => {
    watch.marks[name] ??= Date.now();
  };
  page.on('websocket', (socket: WebSocket) => {
    if (!socket.url().includes('/FuncService')) return;
    mark('hubSocketOpened');
    socket.on('close', () => watch.closes.push(Date.now()));
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"FuncGPS"')) mark('funcGpsSent');
    });
    socket.on('framereceived', ({ payload }) => {
      mark('hubFirstMessage');
      if (typeof payload !== 'string') return;
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
