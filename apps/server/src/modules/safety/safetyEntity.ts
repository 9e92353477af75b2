import { safetyKey, safetySettingRowSchema } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { targetNames } from './safetyRepository.js';
import type { SafetyTargetKind } from './safetyRules.js';

/**
 * Stored safety settings rows: QueryData / ExportData (filters and sort on the columns below). Each
 * row of a page gets its `Key` (what `POST /api/Safety/Delete` takes) and the name of the user,
 * department or enterprise it applies to. Saving is `POST /api/Safety/Settings` (safetyRoutes).
 */
export const safetyEntity: EntityDefinition = {
  name: 'Safety',
  table: 'safety_setting',
  fields: {
    TargetID: 'int',
    TargetKind: 'string',
    E_ID: 'int',
    CheckInMinutes: 'int',
    GraceMinutes: 'int',
    NoMovementMinutes: 'int',
    NoMovementMeters: 'int',
    UpdatedAt: 'time',
  },
  defaultOrder: { field: 'UpdatedAt', desc: true },
  rowSchema: safetySettingRowSchema,
  completeRows: async (db, rows) => {
    const targets = rows.map((r) => ({ kind: r.TargetKind as SafetyTargetKind, id: Number(r.TargetID) }));
    const names = await targetNames(db, targets);
    return rows.map((r, i) => {
      const { kind, id } = targets[i]!;
      return {
        ...r,
        Key: safetyKey(kind, id),
        TargetID: id,
        UpdatedAt: Number(r.UpdatedAt),
        Name: names.get(safetyKey(kind, id)) ?? '',
      };
    });
  },
};
