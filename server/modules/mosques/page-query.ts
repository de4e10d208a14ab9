import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { MosqueMatch, MosqueSortField, MosquesPageQuery } from '../../../contract/mosque-list';
import type { Database } from '../../db/schema';
import { containsText } from '../../db/search';

/** The columns a search looks in: names in both scripts, the id, and where the mosque is. */
const SEARCHED = ['name', 'name_ar', 'mosque_id', 'city', 'district', 'country'] as const;
/** Text sorts ignore case, so "al-Noor" sits beside "Al-Noor". */
const TEXT_SORTS = new Set<MosqueSortField>(['city', 'country', 'timezone']);
/**
 * The sortable columns that may be empty. Only these get the "empty last" term: on a NOT NULL column it
 * changes nothing but keeps the engine from walking an index, so the default order (created_at, id) sorted
 * all 10,000 rows for every first page instead of reading ten entries of mosques_created_at.
 */
const NULLABLE_SORTS = new Set<MosqueSortField>(['city', 'country', 'timezone']);
export const DEFAULT_PAGE_LIMIT = 10;

type MosquesQuery = SelectQueryBuilder<Database, 'mosques', object>;

function filtered(db: Kysely<Database>, query: MosqueMatch): MosquesQuery {
  let builder = db.selectFrom('mosques') as MosquesQuery;
  const { q } = query;
  if (q) builder = builder.where((eb) => eb.or(containsText(SEARCHED, q)));
  if (query.active !== undefined) builder = builder.where('active', '=', query.active ? 1 : 0);
  if (query.broadcast_status) builder = builder.where('broadcast_status', '=', query.broadcast_status);
  if (query.timezone) builder = builder.where('timezone', '=', query.timezone);
  return builder;
}

/** The filter's mosques, narrowed to `ids` when it names some (none named: none match; `in ()` is an error in PostgreSQL). */
function amongIds(builder: MosquesQuery, ids: string[] | undefined): MosquesQuery {
  if (ids === undefined) return builder;
  return ids.length === 0 ? builder.where(sql<boolean>`1 = 0`) : builder.where('mosque_id', 'in', ids);
}

/** One page of the mosques matching `query`, in its order (ties by id, empty values last), and how many match. */
export async function mosquesPage(db: Kysely<Database>, query: MosquesPageQuery) {
  const base = amongIds(filtered(db, query), query.mosque_ids);
  const sort = query.sort ?? 'created_at';
  const direction = query.order ?? 'asc';
  const column = sql.ref(sort);
  // Names in natural order ("Mosque 2" before "Mosque 10"), read in order from mosques_name_sort.
  const key = sort === 'name' ? sql.ref('name_sort') : TEXT_SORTS.has(sort) ? sql`lower(${column})` : column;
  let rowsQuery = base.selectAll();
  // Both engines: false before true, so a missing city or zone sorts after every present one in either direction.
  if (NULLABLE_SORTS.has(sort)) rowsQuery = rowsQuery.orderBy(sql`${column} is null`);
  rowsQuery = rowsQuery
    .orderBy(key, direction)
    .orderBy('mosque_id', direction)
    .limit(query.limit ?? DEFAULT_PAGE_LIMIT)
    .offset(query.offset ?? 0);
  const [rows, count] = await Promise.all([
    rowsQuery.execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** The id of every mosque matching a filter ("Select all N matching"), oldest first. */
export async function matchingMosqueIds(db: Kysely<Database>, match: MosqueMatch): Promise<string[]> {
  const rows = await filtered(db, match).select('mosque_id').orderBy('created_at').orderBy('mosque_id').execute();
  return rows.map((row) => row.mosque_id);
}
