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
} as const;
