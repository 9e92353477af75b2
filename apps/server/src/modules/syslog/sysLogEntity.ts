import { sysLogRowSchema } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';

/** The system log through the generic machinery: read and export only (admin only). */
export const sysLogEntity: EntityDefinition = {
  name: 'SysLog',
  table: 'sys_log',
  adminOnly: true,
  fields: {
    L_ID: 'int',
    E_ID: 'int',
    A_ID: 'int',
    Operator: 'string',
    Action: 'string',
    Target: 'string',
    Summary: 'string',
    IP: 'string',
    CreatedAt: 'int',
  },
  defaultOrder: { field: 'CreatedAt', desc: true },
  rowSchema: sysLogRowSchema,
};
