import { consoleAccountRowSchema, accountSaveSchema } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { serviceSave, serviceRemove } from '../../core/serviceHooks.js';
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
  save: serviceSave(accountSaveSchema, saveAccount),
  remove: serviceRemove(removeAccount),
};
