import {
  DEFAULT_LOCATION_VALUE,
  LOCATION_MODES,
  hasCap,
  parseLocationValue,
  type LocationValue,
  type TerminalConfig,
} from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { currentProfile } from '../modules/enterprise/index.js';

/** What the gateway needs of a terminal user: identity, login checks and the GPS parameter. */
export interface TerminalUser {
  U_ID: number;
  E_ID: number;
  UserName: string;
  Phone: string;
  PasswordHash: string;
  IsLock: number;
  ExpireAt: number | null;
  Caps: number;
  GPSConfig: string;
  enterpriseDisabled: boolean;
  enterpriseExpireAt: number | null;
}

function selectUsers(db: Kysely<DB>) {
  return db
    .selectFrom('terminal_user as u')
    .innerJoin('enterprise as e', 'e.E_ID', 'u.E_ID')
    .select([
      'u.UserID as U_ID',
      'u.E_ID',
      'u.UserName',
      'u.MobilePhone as Phone',
      'u.PasswordHash',
      'u.IsLock',
      'u.ExpireAt',
      'u.Caps',
      'u.GPSConfig',
      'e.Disabled',
      'e.ExpireAt as EnterpriseExpireAt',
    ]);
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectUsers>['executeTakeFirst']>>;

function toUser(row: Selected): TerminalUser | undefined {
  if (!row) return undefined;
  const { Disabled, EnterpriseExpireAt, ...user } = row;
  return { ...user, enterpriseDisabled: Disabled !== 0, enterpriseExpireAt: EnterpriseExpireAt };
}

/**
 * The user whose phone (its terminal account, unique on the platform) is `phone`. There is no
 * tenancy scope before a terminal logs in, and login needs the password hash, so this reads the
 * table itself rather than through the user module's scoped functions.
 */
export async function terminalUserByPhone(db: Kysely<DB>, phone: string): Promise<TerminalUser | undefined> {
  return toUser(await selectUsers(db).where('u.MobilePhone', '=', phone).executeTakeFirst());
}

/** OsmAnd `id`: the user's phone, else a device code (inventory) bound to a user. */
export async function terminalUserByDeviceId(db: Kysely<DB>, id: string): Promise<TerminalUser | undefined> {
  const byPhone = await terminalUserByPhone(db, id);
  if (byPhone) return byPhone;
  const device = await db
    .selectFrom('device')
    .select('UserID')
    .where('DeviceCode', '=', id)
    .where('UserID', 'is not', null)
    .orderBy('D_ID')
    .executeTakeFirst();
  if (!device?.UserID) return undefined;
  return toUser(await selectUsers(db).where('u.UserID', '=', device.UserID).executeTakeFirst());
}

export async function terminalUsersById(db: Kysely<DB>, ids: readonly number[]): Promise<TerminalUser[]> {
  if (ids.length === 0) return [];
  const rows = await selectUsers(db)
    .where('u.UserID', 'in', [...ids])
    .execute();
  return rows.map((row) => toUser(row) as TerminalUser);
}

/** Why a user may not report now, or null: checked at login and on every OsmAnd request. */
export function refusalOf(user: TerminalUser, now: number): 'frozen' | 'expired' | 'enterprise_disabled' | null {
  if (user.enterpriseDisabled || (user.enterpriseExpireAt !== null && user.enterpriseExpireAt <= now)) {
    return 'enterprise_disabled';
  }
  if (user.IsLock !== 0) return 'frozen';
  if (user.ExpireAt !== null && user.ExpireAt <= now) return 'expired';
  return null;
}

/** The enterprise's current location-report profile, or the default. */
export async function enterpriseProfile(db: Kysely<DB>, E_ID: number): Promise<LocationValue> {
  const current = await currentProfile(db, E_ID);
  return (current && parseLocationValue(current.SCValue)) ?? DEFAULT_LOCATION_VALUE;
}

/**
 * A user's configuration: its GPS parameter (`GPSConfig`, JSON with optional interval, distance,
 * mode, enabled) over the enterprise's profile; GPS is off without the `gps` capability.
 */
export function configFor(
  user: Pick<TerminalUser, 'Caps' | 'GPSConfig'>,
  profile: LocationValue,
  heartbeat: number,
): TerminalConfig {
  const own = parseGpsConfig(user.GPSConfig);
  const mode =
    typeof own.mode === 'string' && (LOCATION_MODES as readonly string[]).includes(own.mode) ? own.mode : profile.mode;
  return {
    interval: isInt(own.interval, 1, 86_400) ? own.interval : profile.interval,
    distance: isInt(own.distance, 0, 10_000) ? own.distance : profile.distance,
    mode: mode as TerminalConfig['mode'],
    enabled: hasCap(user.Caps, 'gps') && own.enabled !== false,
    heartbeat,
  };
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function parseGpsConfig(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
