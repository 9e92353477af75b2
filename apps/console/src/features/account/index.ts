// The signed-in account's session: who is logged in, the enterprise's settings, logging out and
// changing one's own password. Used by the app shell and by every feature that reads a setting.
export { loginInfoKey, useLoginInfo, useLogout, useSysConfig } from './api';
export { ChangePasswordDialog } from './ChangePasswordDialog';
export { ROLE_LABELS } from './roleLabels';
