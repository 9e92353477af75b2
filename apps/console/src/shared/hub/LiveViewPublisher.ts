import type { GpsRecord, HeartRate, Notification } from '@intercom/contract';
import { USER_MAP_STATES, type UserMapState } from './userMapState';
import { userStatesOf } from './userStatesOf';
import type { FoundUser, LiveViewChanges, StateChanges, WatchedUser } from './hubWorkerMessages';
import type { LiveStore } from './LiveStore';
import type { HubMessage, LiveSnapshot } from './liveSnapshot';

/** Sends the page a view's changes (their typed arrays are moved, not copied). */
export type ViewSink = (changes: LiveViewChanges, transfer: ArrayBuffer[]) => void;

const STATE_CODES = new Map(USER_MAP_STATES.map((state, code) => [state, code]));

/** The states that differ between `before` and `after`, or all of `after` when there was no `before`. */
function stateChanges(
  before: ReadonlyMap<number, UserMapState> | undefined,
  after: ReadonlyMap<number, UserMapState>,
): StateChanges | undefined {
  const ids: number[] = [];
  const codes: number[] = [];
  const offline = STATE_CODES.get('offline')!;
  for (const [id, state] of after) {
    if (before?.get(id) === state) continue;
    ids.push(id);
    codes.push(STATE_CODES.get(state)!);
  }
  // A user no longer on the map (a snapshot without it) is offline, as one the hub never had.
  if (before) {
    for (const id of before.keys()) {
      if (after.has(id)) continue;
      ids.push(id);
      codes.push(offline);
    }
  }
  if (before && ids.length === 0) return undefined;
  return { replace: !before, ids: Float64Array.from(ids), codes: Uint8Array.from(codes) };
}

/**
 * The hub worker's side of the page's LiveView: after every burst of the LiveStore, tells the page
 * only what it shows (status, counts, alarms, users' states, the few users it watches and the
 * burst's events), never the 50,000 records themselves (docs/decisions.md).
 */
export class LiveViewPublisher {
  private sent: LiveSnapshot | undefined;
  private sentStates: ReadonlyMap<number, UserMapState> | undefined;
  private readonly watched = new Map<number, { record: GpsRecord | null; heartRate: HeartRate | null }>();
  private onlineDelta = 0;
  private alarmPushed = false;
  private incidentChanged = false;
  private scheduled = false;
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly store: LiveStore,
    private readonly sink: ViewSink,
    private readonly later: (task: () => void) => void = (task) => queueMicrotask(task),
  ) {
    // The store tells its listeners, then its message listeners, in one flush: one view after both.
    this.unsubscribe = [store.subscribe(() => this.schedule()), store.subscribeMessages((m) => this.take(m))];
    this.schedule();
  }

  /** The users whose records the page wants with every change (the selected one). */
  watch(ids: readonly number[]): void {
    for (const id of [...this.watched.keys()]) if (!ids.includes(id)) this.watched.delete(id);
    for (const id of ids) if (!this.watched.has(id)) this.watched.set(id, { record: null, heartRate: null });
    // Sent at once, whatever was sent before: the page forgets a user it stops watching.
    this.publish([...ids]);
  }

  /** Up to `max` users with a position whose name or phone contains `text` (case ignored). */
  search(text: string, max: number): FoundUser[] {
    const needle = text.trim().toLowerCase();
    if (!needle || max < 1) return [];
    const found: FoundUser[] = [];
    for (const { U_ID, UserName, Phone } of this.store.getSnapshot().positions.values()) {
      if (!UserName.toLowerCase().includes(needle) && !Phone.includes(needle)) continue;
      found.push({ U_ID, UserName, Phone });
      if (found.length === max) break;
    }
    return found;
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  private take(messages: readonly HubMessage[]): void {
    for (const message of messages) {
      if (message.type === 'OnlineChange') this.onlineDelta += message.data.delta;
      if (message.type === 'Notify') this.alarmPushed = true;
      if (message.type === 'Incident') this.incidentChanged = true;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.later(() => {
      this.scheduled = false;
      this.publish([]);
    });
  }

  /** Sends what changed since the last view; `force` names watched users to send even if unchanged. */
  private publish(force: readonly number[]): void {
    const snapshot = this.store.getSnapshot();
    const sent = this.sent;
    const changes: LiveViewChanges = { onlineDelta: this.onlineDelta, alarmPushed: this.alarmPushed };
    if (this.incidentChanged) changes.incidentChanged = true;
    const transfer: ArrayBuffer[] = [];
    if (snapshot.status !== sent?.status) changes.status = snapshot.status;
    if (!sent || snapshot.onlineCount !== sent.onlineCount) changes.onlineCount = snapshot.onlineCount;
    if (snapshot.gpsOnlineCount !== sent?.gpsOnlineCount) changes.gpsOnlineCount = snapshot.gpsOnlineCount;
    if (snapshot.alarms !== sent?.alarms) changes.alarms = [...snapshot.alarms.values()] as Notification[];
    const states = userStatesOf(snapshot);
    if (states !== this.sentStates) {
      changes.states = stateChanges(this.sentStates, states);
      if (changes.states)
        transfer.push(changes.states.ids.buffer as ArrayBuffer, changes.states.codes.buffer as ArrayBuffer);
      this.sentStates = states;
    }
    const watched = this.watchedChanges(snapshot, force);
    if (watched.length > 0) changes.watched = watched;
    this.sent = snapshot;
    this.onlineDelta = 0;
    this.alarmPushed = false;
    this.incidentChanged = false;
    const { onlineDelta, alarmPushed, ...rest } = changes;
    if (Object.keys(rest).length === 0 && onlineDelta === 0 && !alarmPushed) return;
    this.sink(changes, transfer);
  }

  private watchedChanges(snapshot: LiveSnapshot, force: readonly number[]): [number, WatchedUser][] {
    const changed: [number, WatchedUser][] = [];
    for (const [id, last] of this.watched) {
      const record = snapshot.positions.get(id) ?? null;
      const heartRate = (record && snapshot.heartRates.get(record.Phone)) ?? null;
      if (record === last.record && heartRate === last.heartRate && !force.includes(id)) continue;
      const now = { record, heartRate };
      this.watched.set(id, now);
      changed.push([id, now]);
    }
    return changed;
  }
}
