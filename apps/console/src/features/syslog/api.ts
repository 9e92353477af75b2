import type { SysLogRow } from '@intercom/contract';
import { entityResource } from '../../shared/list/entityResource';

/** `/api/SysLog/QueryData` and `ExportData`: newest first unless the user sorts otherwise. */
export const sysLogResource = entityResource<SysLogRow>({
  name: 'SysLog',
  rowKey: 'L_ID',
  defaultOrder: { field: 'CreatedAt', desc: true },
});
