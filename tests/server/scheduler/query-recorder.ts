import {
  SelectQueryNode,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type UnknownRow,
} from 'kysely';
import type { Database } from '../../../server/db';

export interface RecordedRead {
  table: string;
  sql: string;
  rows: number;
}

/**
 * Counts every SELECT a Kysely instance runs, with its SQL and how many rows it returned: a test
 * can then prove which queries a piece of work made and how much it read.
 */
export class QueryRecorder implements KyselyPlugin {
  readonly reads: RecordedRead[] = [];
  private readonly pending = new WeakMap<object, { table: string; sql: string }>();
  private kysely: Kysely<Database> | undefined;

  /** The same database, with every SELECT recorded here. */
  attach(db: Kysely<Database>): Kysely<Database> {
    this.kysely = db.withPlugin(this);
    return this.kysely;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs) {
    if (SelectQueryNode.is(node) && this.kysely) {
      const from = node.from?.froms[0];
      const table =
        from && 'table' in from ? (from as { table: { identifier: { name: string } } }).table.identifier.name : '?';
      this.pending.set(queryId, { table, sql: this.kysely.getExecutor().compileQuery(node, queryId).sql });
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const read = this.pending.get(queryId);
    if (read) this.reads.push({ ...read, rows: result.rows.length });
    return Promise.resolve(result);
  }

  /** Reads of one table since `clear()`. */
  of(table: string): RecordedRead[] {
    return this.reads.filter((read) => read.table === table);
  }

  clear(): void {
    this.reads.length = 0;
  }
}
