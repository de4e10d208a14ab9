import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect';
import type { DialectMigration } from './helpers';
import { authMigration } from './001_auth';
import { captureMigration } from './002_capture';
import { mosquesMigration } from './003_mosques';
import { schedulerMigration } from './004_scheduler';
import { monitoringMigration } from './005_monitoring';
import { recordingCoverageMigration } from './006_recording_coverage';
import { alarmsMigration } from './007_alarms';
import { fridayOutcomesMigration } from './008_friday_outcomes';
import { alarmDeliveriesMigration } from './010_alarm_deliveries';
import { captureRunsMigration } from './011_capture_runs';
import { readPathsMigration } from './012_read_paths';
import { storeJoinsMigration } from './014_store_joins';
import { planningLeaseMigration } from './015_planning_lease';
import { alarmCauseHistoryMigration } from './016_alarm_cause_history';
import { alarmNotificationsMigration } from './017_alarm_notifications';
import { provisionalOutcomesMigration } from './018_provisional_outcomes';
import { sharedCoordinationMigration } from './019_shared_coordination';
import { serversMigration } from './020_servers';
import { generatedPasswordMigration } from './022_generated_password';
import { serverStopsMigration } from './023_server_stops';
import { serverTakeoversMigration } from './024_server_takeovers';
import { liveSocketsMigration } from './025_live_sockets';
import { resumePointsMigration } from './026_resume_points';
import { naturalNameSortMigration } from './027_natural_name_sort';
import { liveContentMigration } from './028_live_content';

/** Every migration in order. Names are permanent: they are recorded in the database. */
const migrations: Record<string, DialectMigration> = {
  '001_auth': authMigration,
  '002_capture': captureMigration,
  '003_mosques': mosquesMigration,
  '004_scheduler': schedulerMigration,
  '005_monitoring': monitoringMigration,
  '006_recording_coverage': recordingCoverageMigration,
  '007_alarms': alarmsMigration,
  '008_friday_outcomes': fridayOutcomesMigration,
  '010_alarm_deliveries': alarmDeliveriesMigration,
  '011_capture_runs': captureRunsMigration,
  '012_read_paths': readPathsMigration,
  '014_store_joins': storeJoinsMigration,
  '015_planning_lease': planningLeaseMigration,
  '016_alarm_cause_history': alarmCauseHistoryMigration,
  '017_alarm_notifications': alarmNotificationsMigration,
  '018_provisional_outcomes': provisionalOutcomesMigration,
  '019_shared_coordination': sharedCoordinationMigration,
  '020_servers': serversMigration,
  '022_generated_password': generatedPasswordMigration,
  '023_server_stops': serverStopsMigration,
  '024_server_takeovers': serverTakeoversMigration,
  '025_live_sockets': liveSocketsMigration,
  '026_resume_points': resumePointsMigration,
  '027_natural_name_sort': naturalNameSortMigration,
  '028_live_content': liveContentMigration,
};

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: async () =>
      Object.fromEntries(
        Object.entries(migrations).map(([name, m]): [string, Migration] => [name, { up: (db) => m.up(db, dialect) }]),
      ),
  };
}
