import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Kysely } from 'kysely';
import * as initial from './migrations/2026112200_initial.js';
import * as usersDevices from './migrations/2026112310_users_devices.js';
import * as channelsMedia from './migrations/2026112330_channels_media.js';
import * as userSearch from './migrations/2026112400_user_search.js';
import * as historyPartitions from './migrations/2026112500_history_partitions.js';
import * as seatSpeaker from './migrations/2026112700_seat_speaker.js';
import * as geofences from './migrations/2026112800_geofences.js';
import * as safety from './migrations/2026112801_safety.js';
import * as incidents from './migrations/2026112802_incidents.js';
import * as safetyTimers from './migrations/2026112803_safety_timers.js';
import * as terminalResume from './migrations/2026112900_terminal_resume.js';
import * as alarmDetail from './migrations/2026120600_alarm_detail.js';

/** Migrations are listed here (not read from disk) so the built server carries them. */
const migrations: Record<string, Migration> = {
  '2026112200_initial': initial,
  '2026112310_users_devices': usersDevices,
  '2026112330_channels_media': channelsMedia,
  '2026112400_user_search': userSearch,
  '2026112500_history_partitions': historyPartitions,
  '2026112700_seat_speaker': seatSpeaker,
  '2026112800_geofences': geofences,
  '2026112801_safety': safety,
  '2026112802_incidents': incidents,
  '2026112803_safety_timers': safetyTimers,
  '2026112900_terminal_resume': terminalResume,
  '2026120600_alarm_detail': alarmDetail,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Runs every migration not yet run; `upTo` stops after that one (tests of a later migration's data path). */
export async function migrateToLatest(db: Kysely<any>, upTo?: string): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
