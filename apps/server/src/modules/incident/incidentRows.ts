import type { IncidentRow } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { MemberChanges, membersOf, type IncidentRecord } from './incidentRepository.js';
import { zoneFieldsOf } from '../../core/zoneColumns.js';
import { alarmsOfUsersSince } from '../notify/index.js';

type Timeline = IncidentRow['Timeline'];
type Burst = IncidentRow['Bursts'][number];

async function timelinesOf(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, Timeline>> {
  const rows = await db
    .selectFrom('incident_event')
    .select(['IN_ID', 'U_ID', 'UserName', 'At', 'Change'])
    .where('IN_ID', 'in', [...ids])
    .orderBy('At')
    .orderBy('IE_ID')
    .execute();
  const out = new Map<number, Timeline>();
  for (const r of rows) {
    const change = r.Change === MemberChanges.left ? MemberChanges.left : MemberChanges.joined;
    const entry = { U_ID: r.U_ID, UserName: r.UserName, At: Number(r.At), Change: change };
    const list = out.get(r.IN_ID);
    if (list) list.push(entry);
    else out.set(r.IN_ID, [entry]);
  }
  return out;
}

/** The recorded speech bursts of the incidents' channels while they were open. */
async function burstsOf(db: Kysely<DB>, records: readonly IncidentRecord[]): Promise<Map<number, Burst[]>> {
  const byChannel = new Map(records.map((r) => [r.CID, r]));
  const rows = await db
    .selectFrom('recording')
    .select(['CID', 'U_ID', 'StartAt', 'Duration'])
    .where('CID', 'in', [...byChannel.keys()])
    .where('RType', '=', 'group')
    .orderBy('StartAt')
    .execute();
  const out = new Map<number, Burst[]>();
  for (const r of rows) {
    const incident = r.CID === null ? undefined : byChannel.get(r.CID);
    const start = Number(r.StartAt);
    if (!incident || start < Number(incident.CreatedAt)) continue;
    const burst = { U_ID: r.U_ID ?? 0, Start: start, End: start + Number(r.Duration) };
    const list = out.get(incident.IN_ID);
    if (list) list.push(burst);
    else out.set(incident.IN_ID, [burst]);
  }
  return out;
}

/**
 * Each member's stays in the incident: [joined, left] from the timeline, up to `end` for a stay
 * still open (no end while the incident is: an alarm stamped by an instance whose clock runs a
 * little ahead still counts).
 */
function staysOf(timeline: Timeline, end: number): Map<number, Array<[number, number]>> {
  const stays = new Map<number, Array<[number, number]>>();
  for (const entry of timeline) {
    let list = stays.get(entry.U_ID);
    if (!list) stays.set(entry.U_ID, (list = []));
    const last = list[list.length - 1];
    if (entry.Change === MemberChanges.joined) list.push([entry.At, end]);
    else if (last) last[1] = entry.At;
  }
  return stays;
}

/** The alarms members raised while they were in the incident. */
async function alarmsOf(db: Kysely<DB>, records: readonly IncidentRecord[], timelines: Map<number, Timeline>) {
  const out = new Map<number, number[]>();
  for (const record of records) {
    const end = record.ClosedAt === null ? Number.POSITIVE_INFINITY : Number(record.ClosedAt);
    const stays = staysOf(timelines.get(record.IN_ID) ?? [], end);
    if (stays.size === 0) continue;
    const rows = await alarmsOfUsersSince(db, record.E_ID, [...stays.keys()], Number(record.CreatedAt));
    const ids = rows
      .filter((r) => {
        const at = Number(r.CreatedAt);
        return (stays.get(r.U_ID ?? 0) ?? []).some(([from, to]) => at >= from && at <= to);
      })
      .map((r) => r.N_ID);
    out.set(record.IN_ID, ids);
  }
  return out;
}

export function toIncidentRow(record: IncidentRecord): IncidentRow {
  return {
    IN_ID: record.IN_ID,
    E_ID: record.E_ID,
    CID: record.CID,
    Name: record.Name,
    Kind: record.Kind,
    ...zoneFieldsOf(record),
    Sticky: record.Sticky !== 0,
    CreatedAt: Number(record.CreatedAt),
    ClosedAt: record.ClosedAt === null ? null : Number(record.ClosedAt),
    MemberIds: [],
    Timeline: [],
    Bursts: [],
    AlarmIds: [],
  };
}

/** One QueryData page of incidents with their members, timelines, speech bursts and alarms. */
export async function incidentRows(db: Kysely<DB>, records: readonly IncidentRecord[]): Promise<IncidentRow[]> {
  if (records.length === 0) return [];
  const ids = records.map((r) => r.IN_ID);
  const [members, timelines, bursts] = await Promise.all([
    membersOf(db, ids),
    timelinesOf(db, ids),
    burstsOf(db, records),
  ]);
  const alarms = await alarmsOf(db, records, timelines);
  return records.map((record) => ({
    ...toIncidentRow(record),
    MemberIds: members.get(record.IN_ID) ?? [],
    Timeline: timelines.get(record.IN_ID) ?? [],
    Bursts: bursts.get(record.IN_ID) ?? [],
    AlarmIds: alarms.get(record.IN_ID) ?? [],
  }));
}
