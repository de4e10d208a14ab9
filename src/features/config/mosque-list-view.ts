import { broadcastStatusSchema } from '../../../contract/config';
import { MOSQUE_SORT_FIELDS, type MosqueSortField, type MosquesListQuery } from '../../../contract/mosque-list';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../lib/paging';

/** What the mosque table shows, as kept in the address: `?q=…&sort=name&order=desc&page=2&size=25&active=false`. */
export interface MosqueListView {
  q: string;
  sort: MosqueSortField | null;
  order: 'asc' | 'desc';
  page: number;
  size: number;
  active: 'true' | 'false' | null;
  broadcast: 'inactive' | 'playing' | 'ended' | null;
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

/** Reads the view from the address; anything unknown or malformed falls back to the default. */
export function viewFromParams(params: URLSearchParams): MosqueListView {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    q: params.get('q') ?? '',
    sort: oneOf(params.get('sort'), MOSQUE_SORT_FIELDS),
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    page: Number.isInteger(page) && page > 0 ? page : 0,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    active: oneOf(params.get('active'), ['true', 'false'] as const),
    broadcast: oneOf(params.get('broadcast'), broadcastStatusSchema.options),
  };
}

/** The server query for a view: always a page query, so the answer carries the total. */
export function queryOfView(view: MosqueListView): MosquesListQuery {
  return {
    limit: view.size,
    offset: view.page * view.size,
    ...(view.q.trim() && { q: view.q.trim() }),
    ...(view.sort && { sort: view.sort, order: view.order }),
    ...(view.active && { active: view.active }),
    ...(view.broadcast && { broadcast_status: view.broadcast }),
  };
}

/** The sort a click on a column's header asks for: that column ascending, or the other way when it is already sorted by it. */
export function nextSort(view: MosqueListView, field: MosqueSortField): { sort: string; order: string } {
  return { sort: field, order: view.sort === field && view.order === 'asc' ? 'desc' : 'asc' };
}
