import type { SortOrder } from '../../contract/list-query';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './paging';

/** What every list at fleet size shows, as kept in the address: `?q=…&sort=name&order=desc&page=2&size=25`. */
export interface ListView<S extends string> {
  q: string;
  sort: S | null;
  order: SortOrder;
  page: number;
  size: number;
}

/** The value when it is one of `allowed`, else null (a hand-edited or stale address). */
export function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

/**
 * Reads the search, sort and page from the address; anything unknown or malformed falls back to the
 * default. `defaultOrder` is the order of a list that is not sorted by a column (the recordings: newest first).
 */
export function listViewFromParams<S extends string>(
  params: URLSearchParams,
  sortFields: readonly S[],
  defaultOrder: SortOrder = 'asc',
): ListView<S> {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  const order = oneOf(params.get('order'), ['asc', 'desc'] as const);
  const sort = oneOf(params.get('sort'), sortFields);
  return {
    q: params.get('q') ?? '',
    sort,
    order: order ?? (sort ? 'asc' : defaultOrder),
    page: Number.isInteger(page) && page > 0 ? page : 0,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** The server query's paging, search and sort for a view: always limit and offset, so the answer carries the total. */
export function listQueryOfView<S extends string>(view: ListView<S>) {
  return {
    limit: view.size,
    offset: view.page * view.size,
    ...(view.q.trim() && { q: view.q.trim() }),
    ...(view.sort && { sort: view.sort, order: view.order }),
  };
}

/** The sort a click on a column's header asks for: that column ascending, or the other way when it is already sorted by it. */
export function nextSort<S extends string>(view: ListView<S>, field: S): { sort: string; order: string } {
  return { sort: field, order: view.sort === field && view.order === 'asc' ? 'desc' : 'asc' };
}
