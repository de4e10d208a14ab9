import type { Insertable, Kysely, Selectable } from 'kysely';
import type { ActivityTable, Database } from '../../db/schema';

export type ActivityRow = Selectable<ActivityTable>;

export class ActivityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(values: Insertable<ActivityTable>): Promise<void> {
    await this.db.insertInto('activity').values(values).execute();
  }

  /** Newest first; `before` pages back from an id. */
  latest(limit: number, before?: number): Promise<ActivityRow[]> {
    let query = this.db.selectFrom('activity').selectAll();
    if (before !== undefined) query = query.where('id', '<', before);
    return query.orderBy('id', 'desc').limit(limit).execute();
  }
}
