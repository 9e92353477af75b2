import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Tables of SPEC.md section 3. Column names follow the spec's field names, so API fields and
 * columns line up one to one. Times are epoch milliseconds. Every table carries E_ID.
 */
export interface EnterpriseTable {
  E_ID: Generated<number>;
  E_Code: string;
  E_Name: string;
  P_ID: number | null;
  A_ID: number | null;
  Quota: number;
  ExpireAt: number | null;
  Disabled: number;
  CreatedAt: number;
}

export interface AccountTable {
  A_ID: Generated<number>;
  E_ID: number;
  LoginName: string;
  Name: string;
  Mail: string;
  PasswordHash: string;
  Role: string;
  Disabled: number;
  FailedCount: number;
  LockedUntil: number | null;
  CreatedAt: number;
}

export interface SessionTable {
  S_ID: Generated<number>;
  E_ID: number;
  A_ID: number;
  TokenHash: string;
  RefreshHash: string;
  ClientId: string;
  IP: string;
  CreatedAt: number;
  LastSeenAt: number;
  ExpiresAt: number;
  EndedAt: number | null;
  EndReason: string | null;
}

export interface OrganTable {
  OSID: Generated<number>;
  E_ID: number;
  OSParentID: number;
  OSName: string;
  U_TypeID: number;
  PriorityLevel: number;
}

export interface UserTable {
  UserID: Generated<number>;
  E_ID: number;
  OS_ID: number | null;
  UserName: string;
  MobilePhone: string;
  ICCID: string | null;
  UType: number;
  PriorityLevel: number;
  ExpireAt: number | null;
  IsLock: number;
  Caps: number;
  PasswordHash: string;
  GPSConfig: string;
  Remark: string;
  CreatedAt: number;
}

export interface DeviceTable {
  D_ID: Generated<number>;
  E_ID: number;
  DeviceCode: string;
  ICCID: string;
  NickName: string;
  Priority: number;
  OSID: number | null;
  UType: number;
  Remark: string;
  UserID: number | null;
  CreatedAt: number;
}

export interface ChannelTable {
  CID: Generated<number>;
  E_ID: number;
  CName: string;
  CTypeID: number;
  Note: string;
  Priority: number;
  VideoEnable: number;
  Record: number;
  CreatedAt: number;
}

export interface ChannelMemberTable {
  CID: number;
  UserID: number;
  E_ID: number;
  Priority: number;
}

export interface SysConfigTable {
  E_ID: number;
  Code: string;
  Value: string;
}

export interface LocationProfileTable {
  SC_ID: Generated<number>;
  E_ID: number;
  SCName: string;
  SCValue: string;
  IsCurrent: number;
}

export interface LocationHistoryTable {
  H_ID: Generated<number>;
  E_ID: number;
  U_ID: number;
  H_Time: number;
  H_Type: number;
  C_Longitude: number;
  C_Latitude: number;
  Speed: number | null;
  Course: number | null;
  Accuracy: number | null;
  Altitude: number | null;
}

export interface NotificationTable {
  N_ID: Generated<number>;
  E_ID: number;
  U_ID: number | null;
  Phone: string;
  NType: string;
  Content: string;
  Latitude: number | null;
  Longitude: number | null;
  State: string;
  HandledBy: number | null;
  HandledAt: number | null;
  Comment: string;
  CreatedAt: number;
}

export interface HeartRateTable {
  HR_ID: Generated<number>;
  E_ID: number;
  U_ID: number;
  Phone: string;
  Value: number;
  H_Time: number;
}

export interface SysLogTable {
  L_ID: Generated<number>;
  E_ID: number;
  A_ID: number | null;
  Operator: string;
  Action: string;
  Target: string;
  Summary: string;
  IP: string;
  CreatedAt: number;
}

export interface RecordingTable {
  R_ID: Generated<number>;
  E_ID: number;
  CID: number | null;
  U_ID: number | null;
  RType: string;
  StartAt: number;
  Duration: number;
  FilePath: string;
  Size: number;
}

export interface GisTypeTable {
  T_ID: Generated<number>;
  E_ID: number;
  Kind: string;
  Name: string;
  Option: string;
}

export interface ServerKeyTable {
  K_ID: string;
  PrivatePem: string;
  Spki: string;
  CreatedAt: number;
}

export interface LoginNonceTable {
  Hash: string;
  CreatedAt: number;
}

export interface DB {
  enterprise: EnterpriseTable;
  account: AccountTable;
  session: SessionTable;
  organ: OrganTable;
  terminal_user: UserTable;
  device: DeviceTable;
  channel: ChannelTable;
  channel_member: ChannelMemberTable;
  sys_config: SysConfigTable;
  location_profile: LocationProfileTable;
  location_history: LocationHistoryTable;
  notification: NotificationTable;
  heart_rate: HeartRateTable;
  sys_log: SysLogTable;
  recording: RecordingTable;
  gis_type: GisTypeTable;
  server_key: ServerKeyTable;
  login_nonce: LoginNonceTable;
}

export type Enterprise = Selectable<EnterpriseTable>;
export type Account = Selectable<AccountTable>;
export type NewAccount = Insertable<AccountTable>;
export type AccountUpdate = Updateable<AccountTable>;
export type Session = Selectable<SessionTable>;
