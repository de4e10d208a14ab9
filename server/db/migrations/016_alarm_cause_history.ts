import type { DialectMigration } from './helpers';

/*
 * Some causes are raised at most once in their history (a recording's stall: alarms/service.ts,
 * raiseOnce), so a raise looks up the cause whether its alarm is open or resolved. The unique index on
 * open causes does not cover resolved ones.
 */
export const alarmCauseHistoryMigration: DialectMigration = {
  async up(db) {
    await db.schema.createIndex('alarms_cause_key').on('alarms').column('cause_key').execute();
  },
};
