import { z } from 'zod';
import { broadcastStatusSchema, mosqueIdSchema, prayerTimesQuerySchema } from './mosques';
import { searchSortShape, selectionSchema } from './list-query';
import { MOSQUE_SORT_FIELDS } from './mosque-fields';
import { countOf } from './plural';

export { MOSQUE_SORT_FIELDS, type MosqueSortField } from './mosque-fields';

/*
 * The mosque table at fleet size: GET /api/config/mosques with any of these parameters answers one
 * page and the count of every match (`data.total`); without them it keeps docs/reference.md's whole list.
 */

export const MOSQUE_PAGE_MAX = 1000;

const flagSchema = z.enum(['true', 'false'], 'Must be true or false').transform((value) => value === 'true');

export const mosquesListQuerySchema = z.strictObject({
  /** `q`: part of a name (either script), an id, a city, a district or a country. */
  ...searchSortShape(MOSQUE_SORT_FIELDS),
  limit: z.coerce.number().int().min(1).max(MOSQUE_PAGE_MAX).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
  active: flagSchema.optional(),
  broadcast_status: broadcastStatusSchema.optional(),
  timezone: z.string().trim().min(1).max(64).optional(),
  /** `a,b`: only these mosques (names shown by id on other pages, a picker's chosen ones); at most 1000. */
  mosque_ids: prayerTimesQuerySchema.shape.mosque_ids.optional(),
});
export type MosquesListQuery = z.input<typeof mosquesListQuerySchema>;
export type MosquesPageQuery = z.output<typeof mosquesListQuerySchema>;

/** True when the caller asked for a page (any parameter), false for docs/reference.md's whole list. */
export function isPageQuery(query: MosquesPageQuery): boolean {
  return Object.values(query).some((value) => value !== undefined);
}

export const MOSQUE_BULK_ACTIONS = ['activate', 'deactivate', 'delete'] as const;
export type MosqueBulkAction = (typeof MOSQUE_BULK_ACTIONS)[number];
export const MOSQUE_BULK_MAX = 1000;

/** POST /api/config/mosques/bulk: one action on many mosques, each done or named as missing. */
/** The table's filter as a bulk action names it: every mosque it matches, however many pages. */
export const mosqueMatchSchema = z.strictObject({
  q: mosquesListQuerySchema.shape.q,
  active: z.boolean().optional(),
  broadcast_status: broadcastStatusSchema.optional(),
  timezone: mosquesListQuerySchema.shape.timezone,
});
export type MosqueMatch = z.infer<typeof mosqueMatchSchema>;

/**
 * Either the selected rows (`mosque_ids`) or every mosque a filter matches (`matching`, "Select all N
 * matching"), with the count the operator confirmed (`expected`): a match that has grown or shrunk since
 * is refused (409) rather than acted on unseen.
 */
export const mosqueBulkRequestSchema = z.union([
  z.strictObject({
    action: z.enum(MOSQUE_BULK_ACTIONS),
    mosque_ids: selectionSchema(mosqueIdSchema, { one: 'mosque', many: 'mosques' }, MOSQUE_BULK_MAX),
  }),
  z.strictObject({
    action: z.enum(MOSQUE_BULK_ACTIONS),
    matching: mosqueMatchSchema,
    expected: z.number().int().min(1),
  }),
]);
export type MosqueBulkRequest = z.input<typeof mosqueBulkRequestSchema>;

export const mosqueBulkResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    action: z.enum(MOSQUE_BULK_ACTIONS),
    /** The mosques the action changed (already in that state counts as done). */
    done: z.array(z.string()),
    /** Ids no mosque has (deleted meanwhile). */
    missing: z.array(z.string()),
  }),
});
export type MosqueBulkResult = z.infer<typeof mosqueBulkResponseSchema>['data'];

/** "3 mosques deactivated", "1 mosque deleted". */
export function bulkDoneMessage(action: MosqueBulkAction, count: number): string {
  const verb = { activate: 'activated', deactivate: 'deactivated', delete: 'deleted' }[action];
  return `${countOf(count, 'mosque')} ${verb}`;
}

/** Why a bulk action on "all matching" was refused: the filter's match is no longer the count confirmed. */
export function matchChangedMessage(matches: number, expected: number): string {
  return `The filter now matches ${countOf(matches, 'mosque')}, not ${expected.toLocaleString('en')}: nothing was changed; confirm again`;
}

const count = z.number().int().min(0);

/**
 * GET /api/config/mosques/summary: the Config page's four counts, worked out where the fleet is, so no
 * console downloads every mosque, its coordinates, prayer times and jobs to count them.
 */
export const mosquesSummarySchema = z.object({
  total: count,
  /** With coordinates. */
  located: count,
  /** With a coming Friday prayer (coordinates, or a fixed Jumu'ah time with a zone). */
  timed: count,
  /** Active, streamed, located and timed, and that Friday's recording not cancelled (./ready-to-record.ts). */
  ready: count,
});
export type MosquesSummary = z.infer<typeof mosquesSummarySchema>;
export const mosquesSummaryResponseSchema = z.object({ success: z.literal(true), data: mosquesSummarySchema });
