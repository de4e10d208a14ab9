import { sql, type Kysely } from 'kysely';
import type { RecordingStatus } from '../../../contract/instances';
import type { Database } from '../../db/schema';
import type { RecordingRow } from './repository';

export interface LibraryFilter {
  limit: number;
  offset: number;
  instance_id?: string;
  mosque_id?: string;
  friday?: string;
  status?: RecordingStatus;
}

/** A recording with what the library shows beside it: its mosque's name, its job and its Friday. */
export type LibraryRow = RecordingRow & { mosque_name: string | null; job_id: string | null; friday: string };

/** Reads for the recordings library: recordings joined to their instance, job and mosque. */
export class RecordingsLibraryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private base() {
    return this.db
      .selectFrom('recordings')
      .innerJoin('instances', 'instances.id', 'recordings.instance_id')
      .leftJoin('scheduler_jobs', 'scheduler_jobs.id', 'instances.job_id')
      .leftJoin('mosques', 'mosques.mosque_id', 'recordings.mosque_id');
  }

  /** The Friday of a scheduled recording, else the UTC day it started (ISO text starts with the date). */
  private readonly friday = sql<string>`coalesce(scheduler_jobs.friday_date, substr(recordings.started_at, 1, 10))`;

  private filtered(filter: Omit<LibraryFilter, 'limit' | 'offset'>) {
    let query = this.base();
    if (filter.instance_id) query = query.where('recordings.instance_id', '=', filter.instance_id);
    if (filter.mosque_id) query = query.where('recordings.mosque_id', '=', filter.mosque_id);
    if (filter.status) query = query.where('recordings.status', '=', filter.status);
    if (filter.friday) query = query.where(this.friday, '=', filter.friday);
    return query;
  }

  async page(filter: LibraryFilter): Promise<{ rows: LibraryRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.filtered(filter)
        .selectAll('recordings')
        .select(['mosques.name as mosque_name', 'instances.job_id as job_id', this.friday.as('friday')])
        .orderBy('recordings.started_at', 'desc')
        .orderBy('recordings.id', 'desc')
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      this.filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as LibraryRow[], total: Number(count.n) };
  }

  async find(id: string): Promise<LibraryRow | undefined> {
    const row = await this.base()
      .selectAll('recordings')
      .select(['mosques.name as mosque_name', 'instances.job_id as job_id', this.friday.as('friday')])
      .where('recordings.id', '=', id)
      .executeTakeFirst();
    return row as LibraryRow | undefined;
  }

  /** Ended recordings whose end is before `before` (ISO), oldest first. */
  async endedBefore(before: string, limit: number): Promise<RecordingRow[]> {
    return this.db
      .selectFrom('recordings')
      .selectAll()
      .where('status', '!=', 'recording')
      .where('ended_at', 'is not', null)
      .where('ended_at', '<', before)
      .orderBy('ended_at')
      .limit(limit)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('recordings').where('id', '=', id).where('status', '!=', 'recording').executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
