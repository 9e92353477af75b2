import type { Generated } from 'kysely';
import type { ZoneColumns } from './zoneColumns.js';

/** Issue 32: an incident zone and its temporary channel CID; ClosedAt null while open. */
export interface IncidentTable extends ZoneColumns {
  IN_ID: Generated<number>;
  E_ID: number;
  CID: number;
  Sticky: number;
  CreatedBy: number | null;
  CreatedAt: number;
  ClosedAt: number | null;
}

/** A user in an incident's zone now (or at its close), since JoinedAt. */
export interface IncidentMemberTable {
  IN_ID: number;
  U_ID: number;
  E_ID: number;
  JoinedAt: number;
}

/** One entry of an incident's member timeline: `joined` or `left` at At. */
export interface IncidentEventTable {
  IE_ID: Generated<number>;
  IN_ID: number;
  U_ID: number;
  UserName: string;
  At: number;
  Change: string;
}
