import { Code, MessageKeys, NotifyLogActions, NotifyStates, type NotifyRow } from '@intercom/contract';
import type { AppDeps } from '../../appDeps.js';
import { AppError } from '../../http/AppError.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import { findNotifications, hubNotification, updateNotifications } from './notifyRepository.js';

type Step = 'acknowledge' | 'resolve';

/** Which states each step starts from: acknowledge only `new`; resolve `new` or `acknowledged`. */
const FROM: Record<Step, readonly string[]> = {
  acknowledge: [NotifyStates.new],
  resolve: [NotifyStates.new, NotifyStates.acknowledged],
};

function changeOf(step: Step, ctx: ServiceContext, comment: string, now: number) {
  const name = ctx.account.Name || ctx.account.LoginName;
  return step === 'acknowledge'
    ? { State: NotifyStates.acknowledged, AckBy: ctx.account.A_ID, AckName: name, AckAt: now, AckComment: comment }
    : {
        State: NotifyStates.resolved,
        HandledBy: ctx.account.A_ID,
        HandledName: name,
        HandledAt: now,
        Comment: comment,
      };
}

/**
 * Acknowledge or resolve alarms, all or nothing: every id in the scope (else 4004) and in a state
 * the step starts from (else 4009 notify.bad_state, with the first offending id). One log row per
 * alarm in the same transaction; after the commit the hub pushes the new state to every console.
 */
export async function handleNotifications(
  ctx: ServiceContext,
  live: AppDeps['realtime']['live'],
  step: Step,
  input: { ids: number[]; comment: string },
): Promise<{ changed: number; rows: NotifyRow[] }> {
  const before = await findNotifications(ctx.db, ctx.scope, input.ids);
  if (before.length !== input.ids.length) throw AppError.notFound();
  const stuck = before.find((n) => !FROM[step].includes(n.State));
  if (stuck) throw new AppError(Code.Conflict, MessageKeys.notifyBadState, { N_ID: stuck.N_ID, State: stuck.State });
  const values = changeOf(step, ctx, input.comment, ctx.clock.now());
  await ctx.db.transaction().execute(async (trx) => {
    const changed = await updateNotifications(trx, input.ids, FROM[step], values);
    // Another console handled one of them between the read and the write: change none.
    if (changed !== input.ids.length) throw new AppError(Code.Conflict, MessageKeys.notifyBadState);
    for (const n of before) {
      await logChange(trx, ctx, {
        E_ID: n.E_ID,
        Action: step === 'acknowledge' ? NotifyLogActions.acknowledge : NotifyLogActions.resolve,
        Target: `${n.NType} ${n.Phone}`.trim(),
        Summary: { N_ID: n.N_ID, State: [n.State, values.State], comment: input.comment },
      });
    }
  });
  const rows = await findNotifications(ctx.db, ctx.scope, input.ids);
  for (const row of rows) live.raiseNotification(hubNotification(row));
  return { changed: rows.length, rows };
}
