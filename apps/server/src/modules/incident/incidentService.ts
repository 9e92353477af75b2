import {
  IncidentChanges,
  IncidentLeaveReasons,
  IncidentLimits,
  IncidentLogActions,
  IncidentMessageKeys,
  Limits,
  MessageKeys,
  type IncidentCreate,
} from '@intercom/contract';
import type { EventBus } from '../../bus/eventBus.js';
import type { Clock } from '../../core/clock.js';
import { withUniqueConflict } from '../../db/withUniqueConflict.js';
import { AppError } from '../../http/AppError.js';
import { enterpriseConfig, enterpriseOf } from '../../core/enterpriseOf.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import {
  channelNameTaken,
  findIncidents,
  insertIncident,
  insertMembers,
  openCount,
  recordClosed,
  type IncidentValues,
} from './incidentRepository.js';
import { zoneColumnsOf, zoneShapeOf } from '../../core/zoneColumns.js';
import { membersNamed, onlineInside, publishIncident, type LivePositions } from './incidentZone.js';

/**
 * What Create and Close need beyond the request: the live positions, the bus to every instance, and
 * the time that stamps the incident and its members' rows (AppDeps.clock).
 */
export interface IncidentDeps {
  live: LivePositions;
  bus: EventBus;
  clock: Clock;
}

function valuesOf(input: IncidentCreate, E_ID: number, A_ID: number | null, now: number): IncidentValues {
  return {
    E_ID,
    CID: 0,
    Name: input.Name,
    ...zoneColumnsOf(input),
    Sticky: input.Sticky ? 1 : 0,
    CreatedBy: A_ID,
    CreatedAt: now,
    ClosedAt: null,
  };
}

/** The channel type of the incident's channel: the enterprise's first allowed audio type. */
async function channelTypeOf(ctx: ServiceContext, E_ID: number): Promise<number> {
  const known: readonly number[] = Limits.audioTypes;
  const text = await enterpriseConfig(ctx, E_ID, 'ChannelTypeID');
  const allowed = text.split(',').map((p) => Number(p.trim()));
  return allowed.find((n) => known.includes(n)) ?? Limits.defaultChannelTypes[0];
}

/**
 * `POST /api/Incident/Create`: the incident, its channel (named like it: channel names are unique in
 * the enterprise, 4009 when taken) whose members are the online users whose latest fix lies inside,
 * and a system-log row; then every instance regroups the members' terminals connected to it.
 */
export async function createIncident(
  ctx: ServiceContext,
  deps: IncidentDeps,
  input: IncidentCreate,
): Promise<{ IN_ID: number; CID: number }> {
  const E_ID = enterpriseOf(ctx.scope, undefined);
  if ((await openCount(ctx.db, E_ID)) >= IncidentLimits.openMax) {
    throw AppError.conflict(IncidentMessageKeys.tooManyOpen, { max: IncidentLimits.openMax });
  }
  if (await channelNameTaken(ctx.db, E_ID, input.Name))
    throw AppError.conflict(MessageKeys.nameExists, { name: input.Name });
  const now = deps.clock.now();
  const values = valuesOf(input, E_ID, ctx.actor.A_ID, now);
  const members = await membersNamed(ctx.db, E_ID, onlineInside(deps.live, E_ID, zoneShapeOf(values)));
  const channel = {
    CTypeID: await channelTypeOf(ctx, E_ID),
    Record: (await enterpriseConfig(ctx, E_ID, 'RecordEnable')) === 'TRUE',
  };
  const created = await withUniqueConflict(
    MessageKeys.nameExists,
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const ids = await insertIncident(trx, values, channel);
        await insertMembers(trx, { ...ids, E_ID }, members, now);
        await logChange(trx, ctx, {
          E_ID,
          Action: IncidentLogActions.create,
          Target: input.Name,
          Summary: { ...ids, Kind: input.Kind, Sticky: Boolean(input.Sticky), members: members.length },
        });
        return ids;
      }),
    { name: input.Name },
  );
  publishIncident(deps.bus, {
    E_ID,
    ...created,
    name: input.Name,
    change: IncidentChanges.opened,
    joined: members.map((m) => m.U_ID),
    left: [],
    reason: null,
  });
  return created;
}

/**
 * `POST /api/Incident/Close`: an incident of the scope (else 4004), open (else 4009). Its members
 * leave with `incident_closed`, its channel is deleted; the record stays for QueryData.
 */
export async function closeIncident(ctx: ServiceContext, deps: IncidentDeps, IN_ID: number): Promise<void> {
  const [incident] = await findIncidents(ctx.db, ctx.scope, [IN_ID]);
  if (!incident) throw AppError.notFound();
  const members = await ctx.db.transaction().execute(async (trx) => {
    const left = await recordClosed(trx, incident, deps.clock.now());
    if (!left) return null;
    await logChange(trx, ctx, {
      E_ID: incident.E_ID,
      Action: IncidentLogActions.close,
      Target: incident.Name,
      Summary: { IN_ID, CID: incident.CID, members: left.length },
    });
    return left;
  });
  if (!members) throw AppError.conflict(IncidentMessageKeys.alreadyClosed);
  publishIncident(deps.bus, {
    E_ID: incident.E_ID,
    IN_ID,
    CID: incident.CID,
    name: incident.Name,
    change: IncidentChanges.closed,
    joined: [],
    left: members,
    reason: IncidentLeaveReasons.closed,
  });
}
