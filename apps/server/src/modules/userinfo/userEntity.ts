import { MessageKeys, userRowSchema, userSaveSchema } from '@intercom/contract';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Condition } from '../../generic/parseCondition.js';
import type { EntityDefinition, VirtualField } from '../../generic/EntityDefinition.js';
import { textSearchField } from '../../generic/textSearch.js';

/** Re-exported for modules that imported it from here before it moved to generic/textSearch. */
export { containsPattern } from '../../generic/textSearch.js';
import { AppError } from '../../http/AppError.js';
import type { Scope } from '../../tenancy/scope.js';
import { serviceSave, serviceRemove } from '../../core/serviceHooks.js';
import { removeUser, saveUser } from './userService.js';

function equalsOnly(c: Condition): string | number {
  if (c.op !== 'eq') throw AppError.field(c.field, MessageKeys.unknownOp);
  return c.value as string | number;
}

/** Users of a department and of every department below it (one recursive query, bound values). */
const OSUnder: VirtualField = {
  type: 'int',
  where: (eb: ExpressionBuilder<any, any>, c: Condition, scope: Scope): Expression<SqlBool> => {
    const id = equalsOnly(c);
    return sql<SqlBool>`${eb.ref('OS_ID')} in (
      with recursive sub("OSID") as (
        select "OSID" from "organ" where "OSID" = ${id} and "E_ID" in (${sql.join([...scope.enterpriseIds])})
        union all
        select o."OSID" from "organ" o join sub s on o."OSParentID" = s."OSID"
      )
      select "OSID" from sub)`;
  },
};

/** One search box: name, phone or ICCID contains the text (case-insensitive). */
const Search = textSearchField(['UserName', 'MobilePhone', 'ICCID'], {
  table: 'terminal_user',
  ftsTable: 'user_search',
  key: 'UserID',
});

/** State: `normal` (not frozen, not expired), `locked` (frozen) or `expired`. */
const State: VirtualField = {
  type: 'string',
  where: (eb, c) => {
    const now = Date.now();
    switch (equalsOnly(c)) {
      case 'locked':
        return eb('IsLock', '=', 1);
      case 'expired':
        return eb.and([eb('ExpireAt', 'is not', null), eb('ExpireAt', '<', now)]);
      case 'normal':
        return eb.and([eb('IsLock', '=', 0), eb.or([eb('ExpireAt', 'is', null), eb('ExpireAt', '>=', now)])]);
      default:
        throw AppError.field(c.field, MessageKeys.badCondition);
    }
  },
};

/**
 * Terminal users (`/api/UserInfo/QueryData`, `ExportData`, `Save`, `Delete/{id}`), read from
 * user_view so rows carry their department's name. Filters beyond the columns: OSUnder (a
 * department and its descendants), Search (name, phone or ICCID), State.
 */
export const userEntity: EntityDefinition = {
  name: 'UserInfo',
  table: 'user_view',
  fields: {
    UserID: 'int',
    E_ID: 'int',
    OS_ID: 'int',
    OSName: 'string',
    UserName: 'string',
    MobilePhone: 'string',
    ICCID: 'string',
    UType: 'int',
    PriorityLevel: 'int',
    ExpireAt: 'time',
    IsLock: 'int',
    Caps: 'int',
    GPSConfig: 'string',
    Remark: 'string',
    CreatedAt: 'time',
  },
  virtualFields: { OSUnder, Search, State },
  defaultOrder: { field: 'UserID', desc: false },
  rowSchema: userRowSchema,
  exportColumns: [
    'UserID',
    'UserName',
    'MobilePhone',
    'ICCID',
    'OSName',
    'UType',
    'PriorityLevel',
    'ExpireAt',
    'IsLock',
    'Caps',
    'Remark',
    'CreatedAt',
  ],
  save: serviceSave(userSaveSchema, saveUser),
  remove: serviceRemove(removeUser),
};
