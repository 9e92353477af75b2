// The page side of bench/map.ts: the probe installed before the console loads, and its types.

/**
 * Installed before the console loads: records the bytes of the hub frame carrying the GPSArray
 * snapshot, and for every GPS delta the fix times it carried and when it arrived. A string,
 * so the bench's own transpiler adds no helpers the page lacks.
 */
export const INSTRUMENT_HUB = `
  const probe = { snapshotBytes: 0, snapshotAt: 0, timing: false, arrivals: [], marks: {}, expected: 0, loadTasks: [], loadTaskStarts: [], closes: [] };
  window.mapProbe = probe;
  // Long tasks from the first moment: those of opening the page and taking the snapshot count too.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      probe.loadTasks.push(Math.round(entry.duration));
      probe.loadTaskStarts.push(Math.round(entry.startTime));
    }
  }).observe({ type: 'longtask', buffered: true });
  window.mapOf = () => document.querySelector('[data-testid="map-canvas"]')?.maplibre;
  // Where the time to the snapshot drawn goes: ms since navigation start of each step, first time only.
  const mark = (name) => { probe.marks[name] ??= Math.round(performance.now()); };
  const watchMap = setInterval(() => {
    const map = window.mapOf();
    if (!map) return;
    clearInterval(watchMap);
    mark('mapCreated');
    if (map.isStyleLoaded()) mark('styleLoaded');
    map.once('style.load', () => mark('styleLoaded'));
    map.once('render', () => mark('firstRender'));
    map.on('sourcedataloading', (event) => {
      if (event.sourceId === 'users') mark('usersSourceAdded');
    });
    map.once('load', () => mark('mapLoaded'));
    let loadedUsers = false;
    let allUsers = false;
    // Updates of the users source MapLibre abandoned (a tile or an update replaced before it
    // finished), and the map's first errors: a window in which no delta was drawn is explained by them.
    probe.usersUpdates = { aborted: 0, errors: [] };
    map.on('dataabort', (event) => {
      if (event.sourceId === 'users') probe.usersUpdates.aborted += 1;
    });
    map.on('error', (event) => {
      if (probe.usersUpdates.errors.length < 5) probe.usersUpdates.errors.push(String(event.error?.message ?? event.error));
    });
    // The users' tiles are cut in the console's tile worker: the container's probe (MapUsers) says
    // how many users the tiles hold and when a batch of them was sent and its tiles reloaded.
    let holdsAll = false;
    let waitingTile = false;
    const users = () => map.getContainer().mapUsers;
    const watchUsers = setInterval(() => {
      if (!users()) return;
      clearInterval(watchUsers);
      users().onRefreshed(() => {
        const held = users().held();
        if (held > 0 && !loadedUsers) {
          loadedUsers = true;
          mark('usersSourceLoaded');
          probe.marks.usersInFirstLoad = held;
        }
        // The snapshot drawn: once the tiles hold (nearly) every user the server counted online,
        // the first of their tiles loaded after that, then the frame that draws it.
        if (!holdsAll && probe.expected > 0 && held >= probe.expected) {
          holdsAll = true;
          waitingTile = true;
          mark('allUsersInSource');
        }
      });
    }, 5);
    map.on('data', (event) => {
      if (event.sourceId !== 'users' || event.dataType !== 'source' || !event.tile) return;
      if (!allUsers && waitingTile) {
        allUsers = true;
        mark('allUsersTileLoaded');
        map.once('render', () => mark('allUsersFirstFrame'));
      }
    });
  }, 10);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      // The talk connection (/terminal) is a WebSocket too: only the hub's is measured.
      if (!String(url).includes('/FuncService')) return;
      // Created (the name of earlier runs), open, FuncGPS sent, first message: negotiate, the
      // handshake and the server's snapshot build apart from the frame's arrival.
      mark('hubSocketOpened');
      // A hub connection that ends (who closed it, and when) explains a reconnect banner in a screenshot.
      this.addEventListener('close', (event) => {
        probe.closes.push({ at: Math.round(performance.now()), code: event.code, reason: event.reason, clean: event.wasClean });
      });
      this.addEventListener('open', () => mark('hubSocketOpen'));
      this.addEventListener('message', (event) => {
        mark('hubFirstMessage');
        if (typeof event.data !== 'string') return;
        const text = event.data;
        if (text.includes('"GPSArray"')) {
          probe.snapshotBytes += new TextEncoder().encode(text).length;
          probe.snapshotAt = performance.now();
          mark('snapshotFrameArrived');
        } else if (probe.timing && text.includes('"type":"GPS"')) {
          // Scanning a frame costs main-thread time: only while the latency is measured.
          // Every fix of the GPS records (not the OnlineUser records a frame may also carry).
          const times = [];
          for (const record of text.split('\\u001e')) {
            if (!record.includes('"type":"GPS"')) continue;
            for (const match of record.matchAll(/"time":(\\d+)/g)) times.push(Number(match[1]));
          }
          probe.arrivals.push({ at: Date.now(), times });
        }
      });
    }
    send(data) {
      if (typeof data === 'string' && data.includes('"FuncGPS"') && this.url.includes('/FuncService')) {
        mark('funcGpsSent');
      }
      super.send(data);
    }
  };
`;

/** What MapUsers puts on the map's container (apps/console/src/map/MapUsers.tsx, MapUsersProbe). */
export interface MapUsersProbe {
  held(): number;
  onRefreshed(listener: (sentAt: number) => void): () => void;
}

export interface MapLike {
  getContainer(): HTMLElement & { mapUsers?: MapUsersProbe };
  on(
    event: string,
    listener: (event: {
      sourceId?: string;
      isSourceLoaded?: boolean;
      dataType?: string;
      sourceDataType?: string;
      tile?: unknown;
    }) => void,
  ): void;
  setLayoutProperty(layer: string, name: string, value: string): void;
  jumpTo(options: { center?: [number, number]; zoom?: number; bearing?: number }): void;
  getBearing(): number;
  triggerRepaint(): void;
}
export type ProbeWindow = Window & {
  mapProbe: {
    snapshotBytes: number;
    snapshotAt: number;
    timing: boolean;
    arrivals: { at: number; times: number[] }[];
    marks: Record<string, number>;
    expected: number;
    loadTasks: number[];
    /** When each of loadTasks started, ms since navigation start. */
    loadTaskStarts: number[];
    closes: { at: number; code: number; reason: string; clean: boolean }[];
    usersUpdates: { aborted: number; errors: string[] };
  };
  mapOf: () => MapLike;
};
