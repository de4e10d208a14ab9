import { sql, type Kysely } from 'kysely';
import { naturalSortKey } from '../../../contract/list-query';
import type { DialectMigration } from './helpers';

/*
 * Mosque names sorted as people read them ("Mosque 2" before "Mosque 10", "#95" before "#955") on a
 * page of 10,000: a key computed from the name when it is written (naturalSortKey), indexed with the
 * id, so a page sorted by name reads ten index entries instead of sorting the fleet. PostgreSQL
 * compares it byte by byte (collation "C"), as SQLite does, so both engines give the same order.
 */
export const naturalNameSortMigration: DialectMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('mosques')
      .addColumn('name_sort', 'text', (col) => {
        const text = col.notNull().defaultTo('');
        return dialect === 'postgres' ? text.modifyEnd(sql`collate "C"`) : text;
      })
      .execute();
    const fill = async (trx: Kysely<unknown>) => {
      const rows = await sql<{ mosque_id: string; name: string }>`select mosque_id, name from mosques`.execute(trx);
      for (const { mosque_id, name } of rows.rows)
        await sql`update mosques set name_sort = ${naturalSortKey(name)} where mosque_id = ${mosque_id}`.execute(trx);
    };
    // PostgreSQL runs migrations in a transaction already; SQLite's thousands of updates get one here.
    await (db.isTransaction ? fill(db) : db.transaction().execute(fill));
    await db.schema.createIndex('mosques_name_sort').on('mosques').columns(['name_sort', 'mosque_id']).execute();
  },
};
