import { z } from 'zod';

/*
 * What every list at fleet size takes: a search, a column to sort by and its direction. Each list adds
 * its own paging (its defaults differ) and filters beside these.
 */

export const SEARCH_MAX = 100;
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** `q`, `sort` (one of the list's columns) and `order`, each optional. */
export function searchSortShape<const F extends readonly [string, ...string[]]>(sortFields: F) {
  return {
    /** Part of what the list searches in; case does not matter. */
    q: z.string().trim().max(SEARCH_MAX, `Search may be at most ${SEARCH_MAX} characters`).optional(),
    sort: z.enum(sortFields).optional(),
    order: z.enum(SORT_ORDERS).optional(),
  };
}
