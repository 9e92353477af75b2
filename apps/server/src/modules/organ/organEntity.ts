import { organRowSchema, organSaveSchema } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { serviceSave, serviceRemove } from '../../core/serviceHooks.js';
import { removeOrgan, saveOrgan } from './organService.js';

/** Departments: QueryData / ExportData, Save (create or edit) and Delete (only when empty). */
export const organEntity: EntityDefinition = {
  name: 'Organ',
  table: 'organ',
  fields: {
    OSID: 'int',
    E_ID: 'int',
    OSParentID: 'int',
    OSName: 'string',
    U_TypeID: 'int',
    PriorityLevel: 'int',
  },
  defaultOrder: { field: 'OSID', desc: false },
  rowSchema: organRowSchema,
  save: serviceSave(organSaveSchema, saveOrgan),
  remove: serviceRemove(removeOrgan),
};
