import { sql, type Expression, type SqlBool } from 'kysely';

/** `%` and `_` typed by the operator are letters, not wildcards. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One condition per column: it contains `text`, case ignored. The caller ORs them. ESCAPE names the
 * backslash for SQLite, which has no default escape character (PostgreSQL's is the same).
 */
export function containsText(columns: readonly string[], text: string): Expression<SqlBool>[] {
  const pattern = containsPattern(text);
  return columns.map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
}
