import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/** One migration; it gets the dialect so it can pick the few types that differ. */
export interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** An auto-incrementing integer primary key in either dialect. */
export function withSerialId<T extends string>(
  table: CreateTableBuilder<T>,
  dialect: Dialect,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** A 0/1 flag stored as an integer in both dialects. */
export const flag = (defaultValue: 0 | 1) => (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(defaultValue);
