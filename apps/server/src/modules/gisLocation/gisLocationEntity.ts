import { MessageKeys, locationPointSchema } from '@intercom/contract';
import type { EntityDefinition, VirtualField } from '../../generic/EntityDefinition.js';
import { AppError } from '../../http/AppError.js';

/** A time bound of the track query: epoch ms (number or digits) or a date text Date.parse reads. */
function timeBound(op: '>=' | '<='): VirtualField {
  return {
    type: 'string',
    where: (eb, c) => {
      if (c.op !== 'eq') throw AppError.field(c.field, MessageKeys.unknownOp);
      const text = String(c.value).trim();
      const time = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
      if (!Number.isSafeInteger(time)) throw AppError.field(c.field, MessageKeys.invalid);
      return eb('H_Time', op, time);
    },
  };
}

/**
 * Location history through the generic machinery (`GET /api/GISLocation/QueryData`): the track of
 * a user is `{"E_ID":1,"U_ID":7,"H_Time1":from,"H_Time2":to}` (optional `H_Type`) with pageSize
 * 500, ordered by H_Time. Rows outside the caller's scope are never returned.
 */
export const gisLocationEntity: EntityDefinition = {
  name: 'GISLocation',
  table: 'location_history',
  fields: {
    H_ID: 'bigint',
    E_ID: 'int',
    U_ID: 'int',
    H_Time: 'time',
    H_Type: 'int',
    C_Longitude: 'number',
    C_Latitude: 'number',
    Speed: 'number',
    Course: 'number',
    Accuracy: 'number',
    Altitude: 'number',
  },
  virtualFields: { H_Time1: timeBound('>='), H_Time2: timeBound('<=') },
  defaultOrder: { field: 'H_Time', desc: false },
  rowSchema: locationPointSchema,
};
