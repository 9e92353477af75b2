import { z } from 'zod';

/** One row of the system log (DESIGN.md section 5). Times are epoch milliseconds. */
export const sysLogRowSchema = z.object({
  L_ID: z.number().int(),
  E_ID: z.number().int(),
  A_ID: z.number().int().nullable(),
  Operator: z.string(),
  Action: z.string(),
  Target: z.string(),
  Summary: z.string(),
  IP: z.string(),
  CreatedAt: z.number().int(),
});
export type SysLogRow = z.infer<typeof sysLogRowSchema>;

/** Actions the foundation writes; later areas add theirs. The console translates `syslog.action.<name>`. */
export const SysLogActions = {
  login: 'login',
  loginFailed: 'login_failed',
  logout: 'logout',
  changePassword: 'change_password',
  modifyConfig: 'modify_config',
  // Issue 3: enterprises, departments, users, devices, accounts.
  enterpriseCreate: 'enterprise_create',
  enterpriseUpdate: 'enterprise_update',
  enterpriseSwitch: 'enterprise_switch',
  organCreate: 'organ_create',
  organUpdate: 'organ_update',
  organDelete: 'organ_delete',
  userCreate: 'user_create',
  userUpdate: 'user_update',
  userDelete: 'user_delete',
  userBatchCreate: 'user_batch_create',
  userListCreate: 'user_list_create',
  userFreeze: 'user_freeze',
  userUnfreeze: 'user_unfreeze',
  userCaps: 'user_caps',
  userLocationConfig: 'user_location_config',
  userBatchChange: 'user_batch_change',
  deviceCreate: 'device_create',
  deviceUpdate: 'device_update',
  deviceDelete: 'device_delete',
  iccidImport: 'iccid_import',
  iccidMap: 'iccid_map',
  iccidFastMap: 'iccid_fast_map',
  iccidPairsMap: 'iccid_pairs_map',
  deviceRecover: 'device_recover',
  accountCreate: 'account_create',
  accountUpdate: 'account_update',
  accountDelete: 'account_delete',
  accountDisable: 'account_disable',
  accountEnable: 'account_enable',
  accountResetPassword: 'account_reset_password',
  profileUpdate: 'profile_update',
} as const;
