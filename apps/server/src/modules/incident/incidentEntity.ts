import { incidentRowSchema } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { incidentRows } from './incidentRows.js';

/**
 * Incidents: QueryData / ExportData (filters and sort on the columns below). Each page gets its
 * zone, members, member timeline, speech bursts and alarms; Create and Close are incidentRoutes.
 */
export const incidentEntity: EntityDefinition = {
  name: 'Incident',
  table: 'incident',
  fields: {
    IN_ID: 'int',
    E_ID: 'int',
    CID: 'int',
    Name: 'string',
    Kind: 'string',
    Radius: 'number',
    Sticky: 'int',
    CreatedAt: 'time',
    ClosedAt: 'time',
  },
  defaultOrder: { field: 'IN_ID', desc: true },
  rowSchema: incidentRowSchema,
  exportColumns: ['IN_ID', 'E_ID', 'CID', 'Name', 'Kind', 'Radius', 'Sticky', 'CreatedAt', 'ClosedAt'],
  completeRows: async (db, rows) => {
    const ids = rows.map((r) => Number(r.IN_ID));
    if (ids.length === 0) return [];
    const records = await db.selectFrom('incident').selectAll().where('IN_ID', 'in', ids).execute();
    const byId = new Map(records.map((r) => [r.IN_ID, r]));
    const ordered = ids.flatMap((id) => {
      const record = byId.get(id);
      return record ? [record] : [];
    });
    return incidentRows(db, ordered);
  },
};
