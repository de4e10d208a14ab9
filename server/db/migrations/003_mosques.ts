import type { DialectMigration } from './helpers';
import { flag } from './helpers';

/** Mosques: what the Config Generator edits and what prayer times and recording configurations come from. */
export const mosquesMigration: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('mosques')
      .addColumn('mosque_id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_ar', 'text')
      .addColumn('google_maps_url', 'text')
      // JSON array of language codes.
      .addColumn('languages', 'text', (c) => c.notNull())
      .addColumn('id_token', 'text')
      .addColumn('active', 'integer', flag(1))
      .addColumn('broadcast_status', 'text', (c) => c.notNull().defaultTo('inactive'))
      // double precision: REAL affinity in SQLite, 8-byte float in PostgreSQL (no rounding of coordinates).
      .addColumn('latitude', 'double precision')
      .addColumn('longitude', 'double precision')
      .addColumn('timezone', 'text')
      .addColumn('city', 'text')
      .addColumn('district', 'text')
      .addColumn('country', 'text')
      .addColumn('country_code', 'text')
      .addColumn('coordinates_method', 'text')
      .addColumn('calculation_method', 'text')
      .addColumn('fixed_jumuah_time', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('mosques_created_at').on('mosques').columns(['created_at', 'mosque_id']).execute();
  },
};
