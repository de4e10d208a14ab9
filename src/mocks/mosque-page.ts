import type { Mosque } from '../../contract/mosques';
import { naturalSortKey } from '../../contract/list-query';
import type { MosqueMatch, MosquesPageQuery, MosqueSortField } from '../../contract/mosque-list';

/*
 * The server's mosque search in memory, for the mocks: the same matching, order and paging as
 * server/modules/mosques/page-query.ts (which does it in SQL).
 */

const SEARCHED = ['name', 'name_ar', 'mosque_id', 'city', 'district', 'country'] as const;

function sortValue(mosque: Mosque, field: MosqueSortField): string | number | null {
  if (field === 'name') return naturalSortKey(mosque.name);
  const value = mosque[field];
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' && ['city', 'country', 'timezone'].includes(field) ? value.toLowerCase() : value;
}

function compare(a: Mosque, b: Mosque, field: MosqueSortField, sign: number): number {
  const left = sortValue(a, field);
  const right = sortValue(b, field);
  if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
  if (left !== right) return (left < right ? -1 : 1) * sign;
  return (a.mosque_id < b.mosque_id ? -1 : 1) * sign;
}

/** Every mosque a filter matches (the table's search and filters, or a bulk action's "all matching"). */
export function matchingMosques(mosques: readonly Mosque[], query: MosqueMatch): Mosque[] {
  const needle = query.q?.toLowerCase();
  return mosques.filter(
    (mosque) =>
      (!needle || SEARCHED.some((field) => mosque[field]?.toLowerCase().includes(needle))) &&
      (query.active === undefined || mosque.active === query.active) &&
      (!query.broadcast_status || mosque.broadcast_status === query.broadcast_status) &&
      (!query.timezone || mosque.timezone === query.timezone),
  );
}

export function mosquesPage(mosques: readonly Mosque[], query: MosquesPageQuery): { mosques: Mosque[]; total: number } {
  const ids = query.mosque_ids && new Set(query.mosque_ids);
  const matching = matchingMosques(mosques, query).filter((mosque) => !ids || ids.has(mosque.mosque_id));
  const field = query.sort ?? 'created_at';
  const sign = query.order === 'desc' ? -1 : 1;
  const sorted = [...matching].sort((a, b) => compare(a, b, field, sign));
  const offset = query.offset ?? 0;
  return { mosques: sorted.slice(offset, offset + (query.limit ?? 10)), total: matching.length };
}
