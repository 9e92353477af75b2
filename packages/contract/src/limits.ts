/** Business constants and limits of SPEC.md section 9. */
export const Limits = {
  requestTimeoutMs: 10_000,
  defaultPageIndex: 0,
  defaultPageSize: 10,
  maxPageSize: 500,
  toastDurationMs: 5_000,
  mobileBreakpointPx: 992,
  sidebarWidthPx: 210,
  channelNameMax: 20,
  channelPriorityMin: 0,
  channelPriorityMax: 7,
  batchCreateMax: 99,
  listCreateMax: 20,
  iccidMinLength: 19,
  iccidMaxLength: 20,
  userPrefixMin: 2,
  userPrefixMax: 10,
  passwordMin: 6,
  passwordMax: 16,
  audioTypes: [103, 105, 106, 107] as const,
  defaultChannelTypes: [106] as const,
  monitorPort: 12001,
  talkPort: 12002,
  backgroundImage: { width: 592, height: 77 },
  logoImage: { width: 304, height: 31 },
  loginMaxFailures: 5,
  loginLockMinutes: 15,
  loginClockSkewMs: 5 * 60_000,
} as const;

/** Names of the cookies and stored items the console keeps (SPEC.md section 9). */
export const StorageKeys = {
  accessToken: 'function_access_token',
  refreshToken: 'function_refresh_token',
  sidebarStatus: 'sidebarStatus',
  language: 'language',
  size: 'size',
} as const;
