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

export type SortValue = string | number | null;

/**
 * Names as people read them: digits by their number ("#95" before "#955", "#9" before "#10"), case and
 * accents ignored. The console sorts with it too, so a page sorted here and a list sorted there agree.
 */
export const naturalCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Digits of a number beyond this many sort as if they were this many (no name carries such a number). */
const SORT_KEY_DIGITS_MAX = 99;

/**
 * A name as a text whose plain character order is the natural order: case and accents dropped, each
 * number written as its count of digits (two digits) then its digits without leading zeros, so "#95"
 * ("#0295") sorts before "#955" ("#03955") and "Mosque 2" before "Mosque 10". The server stores it
 * beside a name and sorts pages by it with an index, in SQLite and PostgreSQL alike (collation "C").
 */
export function naturalSortKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[0-9]+/g, (digits) => {
      const number = digits.replace(/^0+(?=[0-9])/, '').slice(0, SORT_KEY_DIGITS_MAX);
      return String(number.length).padStart(2, '0') + number;
    });
}

/** Two sort values in ascending order: text naturally, numbers as numbers (empty values are the caller's). */
export function compareSortValues(left: string | number, right: string | number): number {
  if (typeof left === 'string' && typeof right === 'string') return naturalCollator.compare(left, right);
  return left < right ? -1 : left > right ? 1 : 0;
}

interface InMemoryList<T, F extends string> {
  /** The texts a search looks in. */
  searched: (row: T) => (string | null | undefined)[];
  /** A row's value for a sort field (text lowered by the caller when case should not matter). */
  sortValue: (row: T, field: F) => SortValue;
  /** The fields that break ties after the asked one, in the same direction. */
  ties: readonly F[];
  /** The direction of a list not sorted by a column; without `ties` it keeps the list's own order. */
  defaultOrder: SortOrder;
}

/**
 * One page of a list held in memory: searched (case ignored), sorted by a field (text naturally, empty
 * values last in either direction; ties by `ties`), and the count of every match. Unsorted, the list is sorted by its ties.
 */
export function pageInMemory<T, F extends string>(
  rows: readonly T[],
  query: { q?: string; sort?: F; order?: SortOrder; limit: number; offset: number },
  list: InMemoryList<T, F>,
): { rows: T[]; total: number } {
  const needle = query.q?.toLowerCase();
  const matching = needle
    ? rows.filter((row) => list.searched(row).some((text) => text?.toLowerCase().includes(needle)))
    : [...rows];
  const sign = (query.order ?? (query.sort ? 'asc' : list.defaultOrder)) === 'desc' ? -1 : 1;
  const fields = [...(query.sort ? [query.sort] : []), ...list.ties];
  const sorted =
    fields.length === 0
      ? matching
      : matching.sort((a, b) => {
          for (const field of fields) {
            const [left, right] = [list.sortValue(a, field), list.sortValue(b, field)];
            if (left === right) continue;
            if (left === null || right === null) return left === null ? 1 : -1;
            const order = compareSortValues(left, right);
            if (order !== 0) return order * sign;
          }
          return 0;
        });
  return { rows: sorted.slice(query.offset, query.offset + query.limit), total: matching.length };
}

/** The rows a bulk action acts on: at least one, at most `max`, each named once (`noun` in the messages). */
export function selectionSchema<T extends z.ZodType<string>>(
  idSchema: T,
  noun: { one: string; many: string },
  max: number,
) {
  return z
    .array(idSchema)
    .min(1, `Select at least one ${noun.one}`)
    .max(max, `At most ${max} ${noun.many} at once`)
    .refine((ids) => new Set(ids).size === ids.length, `Each ${noun.one} may be named once`);
}
