import { enterpriseRowSchema, enterpriseSaveSchema } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { serviceSave } from '../../core/serviceHooks.js';
import { saveEnterprise } from './enterpriseService.js';

/** Enterprises of the scope (admin only): QueryData / ExportData, and Save for sub-enterprises. */
export const enterpriseEntity: EntityDefinition = {
  name: 'Enterprise',
  table: 'enterprise',
  adminOnly: true,
  fields: {
    E_ID: 'int',
    E_Code: 'string',
    E_Name: 'string',
    P_ID: 'int',
    A_ID: 'int',
    Quota: 'int',
    ExpireAt: 'time',
    Disabled: 'int',
    CreatedAt: 'time',
  },
  defaultOrder: { field: 'E_ID', desc: false },
  rowSchema: enterpriseRowSchema,
  save: serviceSave(enterpriseSaveSchema, saveEnterprise),
};
