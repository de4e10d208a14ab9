import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { RecordingSortField, RecordingsPageQuery } from '../../../contract/recordings';
import { CONTENT_CONDITIONS } from '../../../recorder/protocol';
import type { Database } from '../../db/schema';
import { containsText } from '../../db/search';
import type { RecordingRow } from './repository';

export type LibraryFilter = RecordingsPageQuery;

/** What a search looks in: the mosque's names in both scripts, its id, and the recording's id. */
const SEARCHED = ['mosques.name', 'mosques.name_ar', 'recordings.mosque_id', 'recordings.id'] as const;

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

  /** What each sortable column sorts by; a mosque's name in natural order, as in the mosque table. */
  private readonly sortKeys: Record<RecordingSortField, RawBuilder<unknown>> = {
    friday: this.friday,
    mosque: sql.ref('mosques.name_sort'),
    status: sql.ref('recordings.status'),
    duration_seconds: sql.ref('recordings.duration_seconds'),
    bytes: sql.ref('recordings.bytes'),
    started_at: sql.ref('recordings.started_at'),
  };

  /**
   * A recording that raised a content alarm (its cause key is `content:<kind>:<recording id>`, see
   * modules/content), open or resolved, or that ended with a content warning in its reason.
   */
  private readonly contentWarned = sql<boolean>`(exists (select 1 from alarms where alarms.cause_key in (${sql.join(
    CONTENT_CONDITIONS.map((kind) => sql`${`content:${kind}:`} || recordings.id`),
  )})) or recordings.reason like ${'%Content warning:%'})`;

  /** Sorts that may meet an empty value (an ad-hoc capture has no mosque; a failed one no duration). */
  private static readonly NULLABLE_SORTS = new Set<RecordingSortField>(['mosque', 'duration_seconds']);

  private filtered(filter: Omit<LibraryFilter, 'limit' | 'offset' | 'sort' | 'order'>) {
    let query = this.base();
    const { q } = filter;
    if (q) query = query.where((eb) => eb.or(containsText(SEARCHED, q)));
    if (filter.instance_id) query = query.where('recordings.instance_id', '=', filter.instance_id);
    if (filter.mosque_id) query = query.where('recordings.mosque_id', '=', filter.mosque_id);
    if (filter.status) query = query.where('recordings.status', '=', filter.status);
    if (filter.friday) query = query.where(this.friday, '=', filter.friday);
    if (filter.content_warnings) query = query.where(this.contentWarned);
    return query;
  }

  /** One page in the asked order (newest first when none; ties by start then id, empty values last), and how many match. */
  async page(filter: LibraryFilter): Promise<{ rows: LibraryRow[]; total: number }> {
    const direction = filter.sort ? (filter.order ?? 'asc') : (filter.order ?? 'desc');
    let rowsQuery = this.filtered(filter)
      .selectAll('recordings')
      .select(['mosques.name as mosque_name', 'instances.job_id as job_id', this.friday.as('friday')]);
    if (filter.sort) {
      const key = this.sortKeys[filter.sort];
      // Both engines: false before true, so an empty value sorts after every present one in either direction.
      if (RecordingsLibraryRepository.NULLABLE_SORTS.has(filter.sort))
        rowsQuery = rowsQuery.orderBy(sql`${key} is null`);
      rowsQuery = rowsQuery.orderBy(key, direction);
    }
    const [rows, count] = await Promise.all([
      rowsQuery
        .orderBy('recordings.started_at', direction)
        .orderBy('recordings.id', direction)
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

  /** Ended recordings whose end is before `before` (ISO), oldest first, past the first `skip`. */
  async endedBefore(before: string, limit: number, skip = 0): Promise<RecordingRow[]> {
    return this.db
      .selectFrom('recordings')
      .selectAll()
      .where('status', '!=', 'recording')
      .where('ended_at', 'is not', null)
      .where('ended_at', '<', before)
      .orderBy('ended_at')
      .orderBy('id')
      .limit(limit)
      .offset(skip)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('recordings')
      .where('id', '=', id)
      .where('status', '!=', 'recording')
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
