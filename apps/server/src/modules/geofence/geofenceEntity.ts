import { geofenceRowSchema, geofenceSaveSchema, type GeofenceSave } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { serviceContext } from '../../core/serviceContext.js';
import { findGeofences, targetsOf, toGeofenceRow } from './geofenceRepository.js';
import { saveGeofence } from './geofenceService.js';

/**
 * Geofences: QueryData / ExportData (filters and sort on the columns below) and Save (JSON). The
 * shape and the users and departments are added to each page; Delete takes a list (geofenceRoutes).
 */
export const geofenceEntity: EntityDefinition = {
  name: 'Geofence',
  table: 'geofence',
  fields: {
    GF_ID: 'int',
    E_ID: 'int',
    Name: 'string',
    Kind: 'string',
    Radius: 'number',
    DwellMinutes: 'int',
    Enter: 'int',
    Exit: 'int',
    CreatedAt: 'time',
    UpdatedAt: 'time',
  },
  defaultOrder: { field: 'GF_ID', desc: false },
  rowSchema: geofenceRowSchema,
  exportColumns: ['GF_ID', 'E_ID', 'Name', 'Kind', 'Radius', 'DwellMinutes', 'Enter', 'Exit', 'CreatedAt', 'UpdatedAt'],
  save: {
    body: geofenceSaveSchema,
    handler: (ctx, body) => {
      const { config, clock } = ctx.request.server.deps;
      return saveGeofence(serviceContext(ctx.request), body as GeofenceSave, config.geofence, clock.now());
    },
  },
  completeRows: async (db, rows) => {
    const ids = rows.map((r) => Number(r.GF_ID));
    const scope = { rootId: 0, enterpriseIds: [...new Set(rows.map((r) => Number(r.E_ID)))] };
    const [records, targets] = await Promise.all([findGeofences(db, scope, ids), targetsOf(db, ids)]);
    const byId = new Map(records.map((r) => [r.GF_ID, r]));
    return ids.flatMap((id) => {
      const record = byId.get(id);
      return record ? [toGeofenceRow(record, targets.get(id))] : [];
    });
  },
};
