// The page side of bench/map.ts: the probe installed before the console loads, and its types.

/**
 * Installed before the console loads: long tasks from the first moment, and when each step of
 * drawing the users happened (the hub's socket lives in the console's hub worker: hubSocketWatch.ts
 * watches it from outside). A string, so the bench's own transpiler adds no helpers the page lacks.
 */
export const INSTRUMENT_HUB = `
  const probe = { marks: {}, expected: 0, loadTasks: [], loadTaskStarts: [] };
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
    // A resize after the first frame reallocates the canvas and redraws it: costly in software.
    const size = () => { const c = map.getContainer(); return c.clientWidth + 'x' + c.clientHeight; };
    probe.marks.mapSizeAtCreation = size();
    map.once('resize', () => { mark('mapResized'); probe.marks.mapSizeAfterResize = size(); });
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
`;

/** What MapUsers puts on the map's container (apps/console/src/map/users/MapUsers.tsx, MapUsersProbe). */
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
    marks: Record<string, number>;
    expected: number;
    loadTasks: number[];
    /** When each of loadTasks started, ms since navigation start. */
    loadTaskStarts: number[];
    usersUpdates: { aborted: number; errors: string[] };
  };
  mapOf: () => MapLike;
};
