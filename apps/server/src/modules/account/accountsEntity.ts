import { consoleAccountRowSchema, accountSaveSchema, type AccountSave } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { serviceContext } from '../../core/serviceContext.js';
import { removeAccount, saveAccount } from './accountsService.js';

/** Console accounts of the scope (admin only): QueryData / ExportData, Save, Delete. Never the hash. */
export const accountsEntity: EntityDefinition = {
  name: 'Account',
  table: 'account',
  adminOnly: true,
  fields: {
    A_ID: 'int',
    E_ID: 'int',
    LoginName: 'string',
    Name: 'string',
    Mail: 'string',
    Role: 'string',
    Disabled: 'int',
    CreatedAt: 'time',
  },
  defaultOrder: { field: 'A_ID', desc: false },
  rowSchema: consoleAccountRowSchema,
  save: {
    body: accountSaveSchema,
    handler: (ctx, body) => saveAccount(serviceContext(ctx.request), body as AccountSave),
  },
  remove: (ctx, id) => removeAccount(serviceContext(ctx.request), id),
};
