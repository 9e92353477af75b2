/** The safety tables (issue 32, migration 2026112801_safety); schema.ts lists them in DB. */

/** Issue 32: lone-worker and no-movement settings of a user, a department or an enterprise (TargetKind). */
export interface SafetySettingTable {
  TargetKind: string;
  TargetID: number;
  E_ID: number;
  CheckInMinutes: number;
  GraceMinutes: number;
  NoMovementMinutes: number;
  NoMovementMeters: number;
  UpdatedAt: number;
}

/** Issue 32: a user's next check-in and where it has stood still since when (modules/safety). */
export interface SafetyStateTable {
  U_ID: number;
  E_ID: number;
  DueAt: number | null;
  DeadlineAt: number | null;
  StillLat: number | null;
  StillLon: number | null;
  StillSince: number | null;
  StillAlarmedAt: number | null;
}

/** Issue 32: an emergency call (CID) an SOS or ManDown opened; EndedAt null while open (talk/emergencyCalls.ts). */
export interface EmergencyCallTable {
  CID: number;
  E_ID: number;
  U_ID: number;
  UserName: string;
  Record: number;
  MaxTalkMs: number;
  OpenedAt: number;
  EndedAt: number | null;
}
