import { recordingRowSchema } from '@intercom/contract';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { textSearchField } from '../../generic/textSearch.js';

/**
 * Recording history (`/api/Recording/QueryData`, `ExportData`), read from recording_view so rows
 * carry the channel's and the speakers' names. Filters: RType (group/private), StartAt (a time
 * range with `between`), CID, U_ID (speaker) and Search (speaker or channel name, phone).
 */
export const recordingEntity: EntityDefinition = {
  name: 'Recording',
  table: 'recording_view',
  fields: {
    R_ID: 'bigint',
    E_ID: 'int',
    RType: 'string',
    CID: 'int',
    CName: 'string',
    U_ID: 'int',
    UserName: 'string',
    MobilePhone: 'string',
    ToU_ID: 'int',
    ToUserName: 'string',
    StartAt: 'time',
    Duration: 'int',
    Size: 'int',
  },
  virtualFields: { Search: textSearchField(['UserName', 'MobilePhone', 'ToUserName', 'CName']) },
  defaultOrder: { field: 'StartAt', desc: true },
  rowSchema: recordingRowSchema,
};
