import { MessageKeys, deviceRowSchema, deviceSaveSchema } from '@intercom/contract';
import type { EntityDefinition, VirtualField } from '../../generic/EntityDefinition.js';
import { textSearchField } from '../../generic/textSearch.js';
import { AppError } from '../../http/AppError.js';
import { serviceContext } from '../../core/serviceContext.js';
import { serviceSave, serviceRemove } from '../../core/serviceHooks.js';
import { withDeviceChannels } from './deviceChannels.js';
import { assertDeviceSaveScope, removeDevice, saveDevice } from './deviceService.js';

/** One search box: ICCID, device code, nickname, or the mapped user's phone or name. */
const Search = textSearchField(['ICCID', 'DeviceCode', 'NickName', 'MobilePhone', 'UserName']);

/** Mapped: 1 = mapped to a user, 0 = free in the inventory. */
const Mapped: VirtualField = {
  type: 'int',
  where: (eb, c) => {
    if (c.op !== 'eq' || (c.value !== 0 && c.value !== 1)) throw AppError.field(c.field, MessageKeys.badCondition);
    return c.value === 1 ? eb('UserID', 'is not', null) : eb('UserID', 'is', null);
  },
};

/**
 * Devices and SIM cards (`/api/Device/QueryData`, `ExportData`, `Save`, `Delete/{id}`; the same
 * list is `GET /api/UserInfo/QueryDeviceData`), read from device_view so rows carry their user.
 */
export const deviceEntity: EntityDefinition = {
  name: 'Device',
  table: 'device_view',
  fields: {
    D_ID: 'int',
    E_ID: 'int',
    DeviceCode: 'string',
    ICCID: 'string',
    NickName: 'string',
    Priority: 'int',
    OSID: 'int',
    OSName: 'string',
    UType: 'int',
    Remark: 'string',
    UserID: 'int',
    UserName: 'string',
    MobilePhone: 'string',
    CreatedAt: 'time',
  },
  virtualFields: { Search, Mapped },
  completeRows: withDeviceChannels,
  defaultOrder: { field: 'D_ID', desc: false },
  rowSchema: deviceRowSchema,
  save: {
    ...serviceSave(deviceSaveSchema, saveDevice),
    scopeFirst: (ctx, rawBody) => assertDeviceSaveScope(serviceContext(ctx.request), rawBody),
  },
  remove: serviceRemove(removeDevice),
};
