import type { Kysely, Selectable } from 'kysely';
import type { Database, SettingsTable } from '../../db/schema';

export type SettingRow = Selectable<SettingsTable>;

/** Key/value settings of the server. Secret values are sealed by the caller before they get here. */
export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  get(key: string): Promise<SettingRow | undefined> {
    return this.db.selectFrom('settings').selectAll().where('key', '=', key).executeTakeFirst();
  }

  /** Several keys in one transaction, so a reader never sees half a configuration. */
  async putAll(values: Record<string, string>, updatedAt: string, updatedBy: string | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(values)) {
        await trx
          .insertInto('settings')
          .values({ key, value, updated_at: updatedAt, updated_by: updatedBy })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: updatedAt, updated_by: updatedBy }))
          .execute();
      }
    });
  }
}
