import type { SafetySettings, TerminalServerMessage } from '@intercom/contract';
import type { EnterpriseRules } from './safetyRules.js';

/** A logged-in terminal as the watch sees it (a TerminalConnection). */
export interface SafetyPeer {
  readonly user: { U_ID: number; E_ID: number; Phone: string } | null;
  readonly closeReason: string | null;
  send(message: TerminalServerMessage): void;
}

export type Subject = { U_ID: number; E_ID: number; Phone: string };

/** A place stood at since `since` (server time); `stored` once written, `alarmed` once its alarm went. */
export interface Still {
  lat: number;
  lon: number;
  since: number;
  stored: boolean;
  alarmed: boolean;
}

export interface Watched {
  peer: SafetyPeer;
  user: Subject;
  /** Its place in the order of attaches: a tick judges the terminals attached before it was asked for. */
  order: number;
  settings: SafetySettings | null;
  OS_ID: number | null;
  departmentAt: number;
  /** The stored state has been read (after attach, or after another writer changed it). */
  loaded: boolean;
  dueAt: number | null;
  deadlineAt: number | null;
  /** The due time this connection was told of with `checkInDue`. */
  sentDue: number | null;
  still: Still | null;
}

/** The terminals of one enterprise watched here, and the rules their settings were resolved from. */
export interface WatchedEnterprise {
  E_ID: number;
  members: Map<number, Watched>;
  /**
   * The members a tick looks at: those `hasWork` holds for, and perhaps some that no longer need it
   * (a tick drops them). Every other member has its settings, all off, and nothing stored or timed:
   * a tick costs nothing for it.
   */
  busy: Set<Watched>;
  /** The rules the members' settings were resolved from; null until the first tick that reads them. */
  rules: EnterpriseRules | null;
  /** Some rule has check-ins or no movement: else every member's settings are off. */
  active: boolean;
  /** Active, and some rule is a department's: the members' departments are read. */
  byDepartment: boolean;
}

/** Check-ins or no movement are on. */
export const isOn = (s: { CheckInMinutes: number; NoMovementMinutes: number }): boolean =>
  s.CheckInMinutes > 0 || s.NoMovementMinutes > 0;

/** Something for a tick to do: settings to read or in force, a stored state to read or to clear. */
export const hasWork = (w: Watched): boolean =>
  !w.loaded || w.settings === null || isOn(w.settings) || w.dueAt !== null || w.still !== null;

/**
 * The terminals watched on this instance, by user and by enterprise. A member is put in its
 * enterprise's `busy` set whenever it may have work: at attach (its stored state is unread), when its
 * stored state is to be read again (`wake`), and when the rules resolve to settings that are on.
 */
export class WatchedTerminals {
  private readonly byUser = new Map<number, Watched>();
  readonly enterprises = new Map<number, WatchedEnterprise>();
  private attached = 0;

  /** Attaches so far: the `order` of the last. */
  get attaches(): number {
    return this.attached;
  }

  get(U_ID: number): Watched | undefined {
    return this.byUser.get(U_ID);
  }

  attach(peer: SafetyPeer, user: Subject): void {
    const before = this.byUser.get(user.U_ID);
    if (before) this.leave(before);
    const w: Watched = {
      peer,
      user: { U_ID: user.U_ID, E_ID: user.E_ID, Phone: user.Phone },
      order: ++this.attached,
      settings: null,
      OS_ID: null,
      departmentAt: 0,
      loaded: false,
      dueAt: null,
      deadlineAt: null,
      sentDue: null,
      still: null,
    };
    this.byUser.set(user.U_ID, w);
    let enterprise = this.enterprises.get(user.E_ID);
    if (!enterprise) {
      enterprise = {
        E_ID: user.E_ID,
        members: new Map(),
        busy: new Set(),
        rules: null,
        active: false,
        byDepartment: false,
      };
      this.enterprises.set(user.E_ID, enterprise);
    }
    enterprise.members.set(user.U_ID, w);
    enterprise.busy.add(w);
  }

  /** The peer's terminal, if it is still the one watched for its user. */
  detach(peer: SafetyPeer, U_ID: number): Watched | null {
    const w = this.byUser.get(U_ID);
    if (w?.peer !== peer) return null;
    this.leave(w);
    return w;
  }

  /** Its stored state changed elsewhere (a sweep moved its schedule): read it again at the next tick. */
  reload(w: Watched): void {
    w.loaded = false;
    this.wake(w);
  }

  /** It may have work at the next tick (a due time was set). */
  wake(w: Watched): void {
    if (this.byUser.get(w.user.U_ID) === w) this.enterprises.get(w.user.E_ID)?.busy.add(w);
  }

  private leave(w: Watched): void {
    this.byUser.delete(w.user.U_ID);
    const enterprise = this.enterprises.get(w.user.E_ID);
    if (!enterprise) return;
    enterprise.busy.delete(w);
    if (enterprise.members.get(w.user.U_ID) === w) enterprise.members.delete(w.user.U_ID);
    if (enterprise.members.size === 0) this.enterprises.delete(w.user.E_ID);
  }
}
