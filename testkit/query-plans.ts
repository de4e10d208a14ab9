import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, Db } from '../server/db';

/**
 * The plans a database chooses for the statements a read runs: `recording` is a Kysely on `db` that
 * notes each statement before running it; `plansOf(read)` runs `read` and explains each noted statement
 * (SQLite by EXPLAIN QUERY PLAN, PostgreSQL by EXPLAIN), as one text per statement.
 */
export function queryPlans(db: Db) {
  const compiled: CompiledQuery[] = [];
  const recording: Kysely<Database> = db.kysely.withPlugin({
    transformQuery: ({ node, queryId }) => {
      compiled.push(db.kysely.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  });

  async function plansOf(read: () => Promise<unknown>): Promise<string[]> {
    compiled.length = 0;
    await read();
    const plans: string[] = [];
    for (const query of [...compiled]) {
      const explain = db.dialect === 'postgres' ? `EXPLAIN ${query.sql}` : `EXPLAIN QUERY PLAN ${query.sql}`;
      const { rows } = await db.kysely.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(explain, [...query.parameters]),
      );
      plans.push(rows.map((row) => String(row['QUERY PLAN'] ?? row.detail)).join('\n'));
    }
    return plans;
  }

  const usesIndex = (plan: string, index: string) =>
    db.dialect === 'postgres'
      ? plan.includes(`using ${index}`) || plan.includes(`on ${index}`)
      : plan.includes(`USING INDEX ${index}`) || plan.includes(`USING COVERING INDEX ${index}`);

  return { recording, plansOf, usesIndex };
}
