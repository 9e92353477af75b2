import { sysLogRowSchema } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { textSearchField } from '../../generic/textSearch.js';

/** The system log through the generic machinery: read and export only (admin only). */
export const sysLogEntity: EntityDefinition = {
  name: 'SysLog',
  table: 'sys_log',
  adminOnly: true,
  fields: {
    L_ID: 'bigint',
    E_ID: 'int',
    A_ID: 'int',
    Operator: 'string',
    Action: 'string',
    Target: 'string',
    Summary: 'string',
    IP: 'string',
    CreatedAt: 'time',
  },
  /** `Text`: operator, target or summary contains the text (the log page's search box). */
  virtualFields: { Text: textSearchField(['Operator', 'Target', 'Summary']) },
  defaultOrder: { field: 'CreatedAt', desc: true },
  rowSchema: sysLogRowSchema,
};
