import { MessageKeys, channelRowSchema } from '@intercom/contract';
import { sql, type SqlBool } from 'kysely';
import type { Condition } from '../../generic/parseCondition.js';
import type { EntityDefinition, VirtualField } from '../../generic/EntityDefinition.js';
import { textSearchField } from '../../generic/textSearch.js';
import { AppError } from '../../http/AppError.js';
import { serviceRemove } from '../../core/serviceHooks.js';
import { removeChannel } from './channelService.js';

function equalsOnly(c: Condition): string | number {
  if (c.op !== 'eq') throw AppError.field(c.field, MessageKeys.unknownOp);
  return c.value as string | number;
}

/** One search box: the name or the note contains the text (case-insensitive). */
const Search = textSearchField(['CName', 'Note']);

/** Channels the user (UserID) is a member of. */
const Member: VirtualField = {
  type: 'int',
  where: (eb, c) =>
    sql<SqlBool>`${eb.ref('CID')} in (select "CID" from "channel_member" where "UserID" = ${equalsOnly(c)})`,
};

/**
 * Channels (`/api/Channel/QueryData`, `ExportData`, `Delete/{id}`), read from channel_view so rows
 * carry their MemberCount. Creating and editing go through the THChannel calls.
 */
export const channelEntity: EntityDefinition = {
  name: 'Channel',
  table: 'channel_view',
  fields: {
    CID: 'int',
    E_ID: 'int',
    CName: 'string',
    CTypeID: 'int',
    Note: 'string',
    Priority: 'int',
    VideoEnable: 'int',
    Record: 'int',
    MemberCount: 'int',
    CreatedAt: 'time',
  },
  virtualFields: { Search, Member },
  defaultOrder: { field: 'CID', desc: false },
  rowSchema: channelRowSchema,
  remove: serviceRemove(removeChannel),
};
