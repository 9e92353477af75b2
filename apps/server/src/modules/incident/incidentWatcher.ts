import { GeofenceLimits, IncidentChanges, IncidentLeaveReasons, type ZoneShape } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { EventBus } from '../../bus/eventBus.js';
import type { Clock } from '../../core/clock.js';
import { UserQueue } from '../../core/userQueue.js';
import type { DB } from '../../db/schema.js';
import { membersOf, openIncidentsOf, recordJoined, recordLeft } from './incidentRepository.js';
import { zoneShapeOf } from '../../core/zoneColumns.js';
import { membersNamed, publishIncident, type IncidentEvent, type LivePositions } from './incidentZone.js';

/** Who reports a fix. */
export interface IncidentSubject {
  E_ID: number;
  U_ID: number;
  UserName: string;
}

export interface IncidentFix {
  lat: number;
  lon: number;
  time: number;
  accuracy?: number | null;
}

interface OpenIncident {
  IN_ID: number;
  CID: number;
  E_ID: number;
  Name: string;
  sticky: boolean;
  zone: ZoneShape;
  /** Users in it, as this instance knows from the database and the bus. */
  members: Set<number>;
}

interface EnterpriseIncidents {
  list: OpenIncident[];
  loadedAt: number;
  reloading: boolean;
}

export interface IncidentWatcherOptions {
  onError: (error: unknown, context: string) => void;
  /** An enterprise's open incidents and members are read again after this long (a lost bus message). */
  maxAgeMs?: number;
  /** The time of that reload and of the members' join and leave rows (AppDeps.clock). */
  clock: Clock;
}

/**
 * Keeps incident zones' members in step with the fixes (docs/safety.md "Incident zones"). A fix of an
 * online user inside an open zone it is not in joins it; a fix farther outside than its accuracy (at
 * least 10 m) leaves it, unless the incident is Sticky. Each change is a conditional write
 * (incident_member), and the writer that made it tells every instance on the bus, whose talk service
 * regroups the terminal if it is connected there. An enterprise without open incidents costs a map
 * lookup per fix.
 */
export class IncidentWatcher {
  private readonly enterprises = new Map<number, EnterpriseIncidents>();
  private readonly loads = new Map<number, Promise<EnterpriseIncidents>>();
  /** The newest fix time checked per user: a backlog sent late does not move the user back. */
  private readonly lastTime = new Map<number, number>();
  /** Each user's changes run one after another, in the order of its fixes. */
  private readonly chains: UserQueue;
  private readonly unsubscribe: () => void;
  private readonly maxAgeMs: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly live: LivePositions,
    private readonly bus: EventBus,
    private readonly options: IncidentWatcherOptions,
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.chains = new UserQueue(options.onError, 'incident membership');
    this.unsubscribe = bus.on('incident', (event) => this.heard(event));
  }

  /** Checks the user's latest fix against the open zones of its enterprise; never throws. */
  check(subject: IncidentSubject, fix: IncidentFix): void {
    const loaded = this.enterprises.get(subject.E_ID);
    if (!loaded) {
      this.queue(subject.U_ID, async () => this.evaluate(subject, fix, await this.load(subject.E_ID)));
      return;
    }
    if (this.options.clock.now() - loaded.loadedAt > this.maxAgeMs) this.refresh(subject.E_ID, loaded);
    if (loaded.list.length > 0) this.evaluate(subject, fix, loaded);
  }

  /** Waits for every queued change (shutdown, tests, the benchmark). */
  async settle(): Promise<void> {
    while (this.chains.size > 0 || this.loads.size > 0) {
      await Promise.allSettled([...this.chains.pending(), ...this.loads.values()]);
    }
  }

  close(): void {
    this.unsubscribe();
  }

  private evaluate(subject: IncidentSubject, fix: IncidentFix, loaded: EnterpriseIncidents): void {
    if (loaded.list.length === 0) return;
    const { U_ID } = subject;
    if (fix.time < (this.lastTime.get(U_ID) ?? 0)) return;
    if (this.lastTime.size > 200_000) this.lastTime.clear();
    this.lastTime.set(U_ID, fix.time);
    const margin = Math.max(GeofenceLimits.hysteresisMinMeters, fix.accuracy ?? 0);
    for (const incident of loaded.list) {
      const member = incident.members.has(U_ID);
      const depth = incident.zone.depth(fix.lat, fix.lon);
      if (!member && depth > 0 && this.live.user(subject.E_ID, U_ID)?.online) {
        incident.members.add(U_ID);
        this.queue(U_ID, () => this.join(subject, incident));
      } else if (member && !incident.sticky && depth < -margin) {
        incident.members.delete(U_ID);
        this.queue(U_ID, () => this.leave(subject, incident));
      }
    }
  }

  private async join(subject: IncidentSubject, incident: OpenIncident): Promise<void> {
    try {
      const [member] = await membersNamed(this.db, subject.E_ID, [subject.U_ID]);
      if (!member || !(await recordJoined(this.db, incident, member, this.options.clock.now()))) return;
      this.publish(incident, [subject.U_ID], [], null);
    } catch (error) {
      incident.members.delete(subject.U_ID);
      throw error;
    }
  }

  private async leave(subject: IncidentSubject, incident: OpenIncident): Promise<void> {
    if (!(await recordLeft(this.db, incident, subject, this.options.clock.now()))) return;
    this.publish(incident, [], [subject.U_ID], IncidentLeaveReasons.leftZone);
  }

  private publish(incident: OpenIncident, joined: number[], left: number[], reason: IncidentEvent['reason']) {
    const { E_ID, IN_ID, CID, Name: name } = incident;
    publishIncident(this.bus, { E_ID, IN_ID, CID, name, change: IncidentChanges.members, joined, left, reason });
  }

  /** An incident event from this instance or another one. */
  private heard(event: IncidentEvent): void {
    const loaded = this.enterprises.get(event.E_ID);
    if (!loaded) return;
    if (event.change === IncidentChanges.closed) {
      loaded.list = loaded.list.filter((i) => i.IN_ID !== event.IN_ID);
    } else if (event.change === IncidentChanges.opened) {
      this.refresh(event.E_ID, loaded);
    } else {
      const incident = loaded.list.find((i) => i.IN_ID === event.IN_ID);
      for (const U_ID of event.joined) incident?.members.add(U_ID);
      for (const U_ID of event.left) incident?.members.delete(U_ID);
    }
  }

  /** Reads the enterprise's open incidents again; fixes meanwhile use the list held. */
  private refresh(E_ID: number, loaded: EnterpriseIncidents): void {
    if (loaded.reloading) return;
    loaded.reloading = true;
    this.load(E_ID).catch((error: unknown) => {
      loaded.reloading = false;
      this.options.onError(error, 'incident reload');
    });
  }

  private load(E_ID: number): Promise<EnterpriseIncidents> {
    let pending = this.loads.get(E_ID);
    if (!pending) {
      pending = this.read(E_ID).finally(() => this.loads.delete(E_ID));
      this.loads.set(E_ID, pending);
    }
    return pending;
  }

  private async read(E_ID: number): Promise<EnterpriseIncidents> {
    const loadedAt = this.options.clock.now();
    const records = await openIncidentsOf(this.db, E_ID);
    const members = await membersOf(
      this.db,
      records.map((r) => r.IN_ID),
    );
    const list = records.map((r) => ({
      IN_ID: r.IN_ID,
      CID: r.CID,
      E_ID,
      Name: r.Name,
      sticky: r.Sticky !== 0,
      zone: zoneShapeOf(r),
      members: new Set(members.get(r.IN_ID)),
    }));
    const loaded = { list, loadedAt, reloading: false };
    this.enterprises.set(E_ID, loaded);
    return loaded;
  }

  private queue(U_ID: number, work: () => Promise<void>): void {
    void this.chains.run(U_ID, work);
  }
}
