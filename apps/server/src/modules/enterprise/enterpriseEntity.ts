import { enterpriseRowSchema, enterpriseSaveSchema, type EnterpriseSave } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { saveEnterprise } from './enterpriseService.js';
import { serviceContext } from '../../core/serviceContext.js';

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
  save: {
    body: enterpriseSaveSchema,
    handler: (ctx, body) => saveEnterprise(serviceContext(ctx.request), body as EnterpriseSave),
  },
};
