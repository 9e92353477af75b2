import {
  DEFAULT_LOCATION_VALUE,
  LocationLimits,
  LocationLogActions,
  MessageKeys,
  parseLocationValue,
  type LocationProfileRow,
  type LocrptSet,
  type saveLocationConfigSchema,
} from '@intercom/contract';
import type { z } from 'zod';
import { withUniqueConflict } from '../../db/withUniqueConflict.js';
import { AppError } from '../../http/AppError.js';
import { enterpriseOf } from '../../core/enterpriseOf.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import {
  countProfiles,
  currentProfile,
  deleteProfile,
  findProfile,
  insertProfile,
  makeCurrent,
  profileNameTaken,
  updateProfile,
} from './locationRepository.js';

type SaveInput = z.infer<typeof saveLocationConfigSchema>;

/** LocrptSet: the current profile's values, or the default when none is current. */
export async function locrptSet(ctx: Pick<ServiceContext, 'db' | 'scope'>, enterpriseId: number): Promise<LocrptSet> {
  const E_ID = enterpriseOf(ctx.scope, enterpriseId);
  const current = await currentProfile(ctx.db, E_ID);
  const value = (current && parseLocationValue(current.SCValue)) ?? DEFAULT_LOCATION_VALUE;
  return {
    E_ID,
    SC_ID: current?.SC_ID ?? 0,
    SCName: current?.SCName ?? '',
    SCValue: JSON.stringify(value),
    ...value,
  };
}

async function profileInScope(ctx: ServiceContext, id: number, eid?: number): Promise<LocationProfileRow> {
  const profile = await findProfile(ctx.db, ctx.scope, id);
  if (!profile || (eid !== undefined && profile.E_ID !== eid)) throw AppError.notFound();
  return profile;
}

/** SaveLocationConfig: create (scID absent or 0) or edit a named profile; names are unique per enterprise. */
export async function saveProfile(ctx: ServiceContext, input: SaveInput): Promise<LocationProfileRow> {
  const existing = input.scID ? await profileInScope(ctx, input.scID, input.eid) : undefined;
  const E_ID = existing?.E_ID ?? enterpriseOf(ctx.scope, input.eid);
  if (await profileNameTaken(ctx.db, E_ID, input.scName, existing?.SC_ID)) {
    throw AppError.conflict(MessageKeys.nameExists, { name: input.scName });
  }
  if (!existing && (await countProfiles(ctx.db, E_ID)) >= LocationLimits.profilesMax) {
    throw AppError.conflict(MessageKeys.locationTooMany, { max: LocationLimits.profilesMax });
  }
  const SC_ID = await withUniqueConflict(
    MessageKeys.nameExists,
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const values = { SCName: input.scName, SCValue: input.scValue };
        const id = existing ? existing.SC_ID : await insertProfile(trx, { E_ID, ...values, IsCurrent: 0 });
        if (existing) await updateProfile(trx, existing.SC_ID, values);
        await logChange(trx, ctx, {
          E_ID,
          Action: LocationLogActions.profileSave,
          Target: input.scName,
          Summary: {
            SC_ID: id,
            before: existing ? { SCName: existing.SCName, SCValue: existing.SCValue } : null,
            after: values,
          },
        });
        return id;
      }),
    { name: input.scName },
  );
  if (existing?.IsCurrent) ctx.events.notify('locationProfileChanged', { E_ID });
  return { SC_ID, E_ID, SCName: input.scName, SCValue: input.scValue, IsCurrent: existing?.IsCurrent ?? 0 };
}

/** SaveCurrentLocationConfig: the profile becomes the one its enterprise's terminals report with. */
export async function setCurrentProfile(ctx: ServiceContext, id: number): Promise<LocrptSet> {
  const profile = await profileInScope(ctx, id);
  const before = await currentProfile(ctx.db, profile.E_ID);
  if (before?.SC_ID !== profile.SC_ID) {
    await ctx.db.transaction().execute(async (trx) => {
      await makeCurrent(trx, profile.E_ID, profile.SC_ID);
      await logChange(trx, ctx, {
        E_ID: profile.E_ID,
        Action: LocationLogActions.profileCurrent,
        Target: profile.SCName,
        Summary: { before: before?.SC_ID ?? 0, after: profile.SC_ID },
      });
    });
    ctx.events.notify('locationProfileChanged', { E_ID: profile.E_ID });
  }
  return locrptSet(ctx, profile.E_ID);
}

/** DeleteLocationConfig: any profile but the current one (choose another current first). */
export async function removeProfile(ctx: ServiceContext, id: number): Promise<void> {
  const profile = await profileInScope(ctx, id);
  if (profile.IsCurrent) throw AppError.conflict(MessageKeys.locationCurrentDelete);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteProfile(trx, profile.SC_ID);
    await logChange(trx, ctx, {
      E_ID: profile.E_ID,
      Action: LocationLogActions.profileDelete,
      Target: profile.SCName,
      Summary: { SC_ID: profile.SC_ID, SCValue: profile.SCValue },
    });
  });
}
