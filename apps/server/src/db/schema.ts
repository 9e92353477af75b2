import type { Generated, Selectable } from 'kysely';
import type { IncidentEventTable, IncidentMemberTable, IncidentTable } from './incidentTables.js';
import type { EmergencyCallTable, SafetySettingTable, SafetyStateTable } from './safetyTables.js';
import type { ZoneColumns } from './zoneColumns.js';

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
  /** The enterprise the console works in (issue 3); null is the account's own. */
  WorkingE_ID: number | null;
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

/** A terminal user's `resume` token (migration 2026112900): its hash, bound to the password hash. */
export interface TerminalResumeTable {
  UserID: number;
  TokenHash: string;
  ExpiresAt: number;
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
  /** Issue 4: who acknowledged the alarm, when and why; HandledBy/HandledAt/Comment are its resolution. */
  AckBy: Generated<number | null>;
  AckName: Generated<string>;
  AckAt: Generated<number | null>;
  AckComment: Generated<string>;
  HandledName: Generated<string>;
  /** Issue 32: 1 once the alarm was raised again because nobody acknowledged it (safety alarms). */
  Escalated: Generated<number>;
  /** Issue 32: the emergency call this SOS or ManDown opened or joined (claimed once, across instances). */
  CallID: Generated<number | null>;
  /** Issue 51: the details as JSON `{ key, params }` (AlarmDetail), shown in the reader's language. */
  Detail: Generated<string | null>;
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
  /** Issue 4: the other party of a private call. */
  ToU_ID: Generated<number | null>;
  /** Issue 30: a dispatcher seat's dispatch number and account name when it spoke (U_ID is null). */
  SpeakerNo: Generated<string | null>;
  SpeakerName: Generated<string | null>;
  /** Issue 30: the seat on the other side of a private call (ToU_ID is null). */
  ToSpeakerName: Generated<string | null>;
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

/** View: terminal_user with its department name (the user list). */
export interface UserViewTable {
  UserID: number;
  E_ID: number;
  OS_ID: number | null;
  OSName: string | null;
  UserName: string;
  MobilePhone: string;
  ICCID: string | null;
  UType: number;
  PriorityLevel: number;
  ExpireAt: number | null;
  IsLock: number;
  Caps: number;
  GPSConfig: string;
  Remark: string;
  CreatedAt: number;
}

/** View: device with its user and department (the SIM inventory list). */
export interface DeviceViewTable {
  D_ID: number;
  E_ID: number;
  DeviceCode: string;
  ICCID: string;
  NickName: string;
  Priority: number;
  OSID: number | null;
  OSName: string | null;
  UType: number;
  Remark: string;
  UserID: number | null;
  UserName: string | null;
  MobilePhone: string | null;
  CreatedAt: number;
}

/** View: channel with its member count (issue 4). */
export interface ChannelViewTable {
  CID: number;
  E_ID: number;
  CName: string;
  CTypeID: number;
  Note: string;
  Priority: number;
  VideoEnable: number;
  Record: number;
  MemberCount: number;
  CreatedAt: number;
}

/** View: recording with its channel, speaker and other party names (issue 4). */
export interface RecordingViewTable {
  R_ID: number;
  E_ID: number;
  RType: string;
  CID: number | null;
  CName: string | null;
  U_ID: number | null;
  UserName: string | null;
  MobilePhone: string | null;
  ToU_ID: number | null;
  ToUserName: string | null;
  StartAt: number;
  Duration: number;
  Size: number;
}

/** View: alarm with its user's name (issue 4). */
export interface NotificationViewTable {
  N_ID: number;
  E_ID: number;
  U_ID: number | null;
  UserName: string | null;
  Phone: string;
  NType: string;
  Content: string;
  Latitude: number | null;
  Longitude: number | null;
  State: string;
  AckBy: number | null;
  AckName: string;
  AckAt: number | null;
  AckComment: string;
  HandledBy: number | null;
  HandledName: string;
  HandledAt: number | null;
  Comment: string;
  CreatedAt: number;
  Escalated: number;
}

export interface DB {
  enterprise: EnterpriseTable;
  account: AccountTable;
  session: SessionTable;
  organ: OrganTable;
  terminal_user: UserTable;
  terminal_resume: TerminalResumeTable;
  device: DeviceTable;
  channel: ChannelTable;
  channel_member: ChannelMemberTable;
  sys_config: SysConfigTable;
  location_profile: LocationProfileTable;
  location_history: LocationHistoryTable;
  notification: NotificationTable;
  heart_rate: HeartRateTable;
  safety_setting: SafetySettingTable;
  safety_state: SafetyStateTable;
  emergency_call: EmergencyCallTable;
  sys_log: SysLogTable;
  recording: RecordingTable;
  gis_type: GisTypeTable;
  server_key: ServerKeyTable;
  login_nonce: LoginNonceTable;
  user_view: UserViewTable;
  device_view: DeviceViewTable;
  channel_view: ChannelViewTable;
  recording_view: RecordingViewTable;
  notification_view: NotificationViewTable;
  geofence: GeofenceTable;
  geofence_target: GeofenceTargetTable;
  geofence_state: GeofenceStateTable;
  incident: IncidentTable;
  incident_member: IncidentMemberTable;
  incident_event: IncidentEventTable;
}

/** Issue 32: a fence; Points is JSON `[[lat, lon], ...]` for a polygon, '' for a circle. */
export interface GeofenceTable extends ZoneColumns {
  GF_ID: Generated<number>;
  E_ID: number;
  Enter: number;
  Exit: number;
  DwellMinutes: number;
  CreatedAt: number;
  UpdatedAt: number;
}

/** A user (`TargetKind` user) or department (department) a fence applies to. */
export interface GeofenceTargetTable {
  GF_ID: number;
  E_ID: number;
  TargetKind: string;
  TargetID: number;
}

/** A user inside a fence since EnteredAt (fix time); DwellAt once its dwell alarm was raised. */
export interface GeofenceStateTable {
  U_ID: number;
  GF_ID: number;
  E_ID: number;
  EnteredAt: number;
  DwellAt: number | null;
}

export type Enterprise = Selectable<EnterpriseTable>;
export type Account = Selectable<AccountTable>;
export type Session = Selectable<SessionTable>;
