import {
  DEFAULT_GIS_TYPES,
  DEFAULT_USER_TYPE_OPTION,
  GisLogActions,
  iconOptionSchema,
  USER_STATES,
  type GisTypeRow,
  type UserTypeOption,
  type UserTypeWithStates,
} from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { writeSysLog, type SysLogEntry } from '../../core/writeSysLog.js';
import { DEFAULT_USER_TYPE, listUserTypes } from './userTypes.js';

type Actor = Pick<SysLogEntry, 'A_ID' | 'Operator' | 'IP'>;

async function typesOf(db: Kysely<DB>, enterpriseId: number, kind: 'point' | 'line'): Promise<GisTypeRow[]> {
  const rows = await db
    .selectFrom('gis_type')
    .select(['T_ID', 'Name', 'Option'])
    .where('E_ID', '=', enterpriseId)
    .where('Kind', '=', kind)
    .orderBy('T_ID')
    .execute();
  return rows.map((r) => ({ ID: r.T_ID, Name: r.Name, Option: r.Option }));
}

/**
 * GISPoint/GetMyType and GISLine/GetMyType: the enterprise's types of that kind. An enterprise
 * that has none gets the defaults stored the first time (so map objects can name them by id);
 * the seeding is logged like any other change, and two first calls at once seed once.
 */
export async function gisTypes(db: Kysely<DB>, enterpriseId: number, kind: 'point' | 'line', actor: Actor) {
  const existing = await typesOf(db, enterpriseId, kind);
  if (existing.length > 0) return existing;
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('gis_type')
      .values(DEFAULT_GIS_TYPES[kind].map((t) => ({ E_ID: enterpriseId, Kind: kind, ...t })))
      .onConflict((oc) => oc.columns(['E_ID', 'Kind', 'Name']).doNothing())
      .returning('T_ID')
      .execute();
    if (inserted.length > 0) {
      await writeSysLog(trx, {
        ...actor,
        E_ID: enterpriseId,
        Action: GisLogActions.seed,
        Target: kind,
        Summary: { before: [], after: DEFAULT_GIS_TYPES[kind].map((t) => t.Name) },
      });
    }
  });
  return typesOf(db, enterpriseId, kind);
}

/** The state icons of a user type's Option; states it lacks (or an Option that is not JSON) take the defaults. */
export function statesOf(option: string): UserTypeOption['states'] {
  const states = { ...DEFAULT_USER_TYPE_OPTION.states };
  let parsed: unknown;
  try {
    parsed = option === '' ? undefined : JSON.parse(option);
  } catch {
    return states;
  }
  const given = (parsed as { states?: Record<string, unknown> } | undefined)?.states;
  if (typeof given !== 'object' || given === null) return states;
  for (const state of USER_STATES) {
    const icon = iconOptionSchema.safeParse(given[state]);
    if (icon.success) states[state] = icon.data;
  }
  return states;
}

/**
 * GISUser/GetMyType: the user types (the built-in type 0 and the enterprise's own, the same list
 * as UserInfo/GetMyType) with their state icons resolved. User types are not seeded: type 0 is
 * every enterprise's default and its icons are DEFAULT_USER_TYPE_OPTION.
 */
export async function userTypesWithStates(db: Kysely<DB>, enterpriseId: number): Promise<UserTypeWithStates[]> {
  const types = await listUserTypes(db, enterpriseId);
  return types.map((t) => ({
    ...t,
    Option: t.ID === DEFAULT_USER_TYPE.ID && t.Option === '' ? JSON.stringify(DEFAULT_USER_TYPE_OPTION) : t.Option,
    States: statesOf(t.Option),
  }));
}
