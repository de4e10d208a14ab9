import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { naturalSortKey } from '../../../contract/list-query';
import type { CalculationMethod, Mosque } from '../../../contract/mosques';
import type { MosqueMatch, MosquesPageQuery } from '../../../contract/mosque-list';
import { fromFlag } from '../../db';
import type { Database, MosquesTable } from '../../db/schema';
import { matchingMosqueIds, mosquesPage } from './page-query';

export type MosqueRow = Selectable<MosquesTable>;

function languagesOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((code): code is string => typeof code === 'string') : [];
  } catch {
    return [];
  }
}

export function toMosque(row: MosqueRow): Mosque {
  return {
    mosque_id: row.mosque_id,
    name: row.name,
    name_ar: row.name_ar,
    google_maps_url: row.google_maps_url,
    languages: languagesOf(row.languages),
    ID_token: row.id_token,
    active: fromFlag(row.active),
    broadcast_status: row.broadcast_status,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    timezone: row.timezone,
    city: row.city,
    district: row.district,
    country: row.country,
    country_code: row.country_code,
    calculation_method: row.calculation_method as CalculationMethod | null,
    fixed_jumuah_time: row.fixed_jumuah_time,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const IDS_PER_QUERY = 1000;

export class MosquesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<MosqueRow[]> {
    return this.db.selectFrom('mosques').selectAll().orderBy('created_at').orderBy('mosque_id').execute();
  }

  /** In chunks: SQLite and PostgreSQL cap the parameters of one statement (a 40,000-id filter failed with the driver's text). */
  async listByIds(ids: string[]): Promise<MosqueRow[]> {
    const rows: MosqueRow[] = [];
    for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
      rows.push(
        ...(await this.db
          .selectFrom('mosques')
          .selectAll()
          .where('mosque_id', 'in', ids.slice(start, start + IDS_PER_QUERY))
          .execute()),
      );
    }
    return rows.sort((a, b) =>
      a.created_at === b.created_at ? (a.mosque_id < b.mosque_id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1,
    );
  }

  page(query: MosquesPageQuery): Promise<{ rows: MosqueRow[]; total: number }> {
    return mosquesPage(this.db, query);
  }

  matchingIds(match: MosqueMatch): Promise<string[]> {
    return matchingMosqueIds(this.db, match);
  }

  /** Sets `active` on every listed mosque not already so; answers the rows it changed. At most IDS_PER_QUERY ids. */
  setActive(ids: string[], active: boolean, updatedAt: string): Promise<MosqueRow[]> {
    const flag = active ? 1 : 0;
    return this.db
      .updateTable('mosques')
      .set({ active: flag, updated_at: updatedAt })
      .where('mosque_id', 'in', ids)
      .where('active', '!=', flag)
      .returningAll()
      .execute();
  }

  /** Deletes every listed mosque; answers the rows deleted. At most IDS_PER_QUERY ids. */
  deleteMany(ids: string[]): Promise<MosqueRow[]> {
    return this.db.deleteFrom('mosques').where('mosque_id', 'in', ids).returningAll().execute();
  }

  find(id: string): Promise<MosqueRow | undefined> {
    return this.db.selectFrom('mosques').selectAll().where('mosque_id', '=', id).executeTakeFirst();
  }

  async exists(id: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('mosques').select('mosque_id').where('mosque_id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }

  /** The name's sort key is written with it, here only. */
  insert(values: Omit<Insertable<MosquesTable>, 'name_sort'>): Promise<MosqueRow> {
    return this.db
      .insertInto('mosques')
      .values({ ...values, name_sort: naturalSortKey(values.name) })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: string, values: Omit<Updateable<MosquesTable>, 'name_sort'>): Promise<MosqueRow | undefined> {
    const sorted = values.name === undefined ? values : { ...values, name_sort: naturalSortKey(values.name) };
    return this.db.updateTable('mosques').set(sorted).where('mosque_id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('mosques').where('mosque_id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
