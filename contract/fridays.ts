import { z } from 'zod';
import { pageInMemory, searchSortShape } from './list-query';
import { envelope, instantSchema } from './common';
import { recordingGapSchema } from './instances';
import type { JobStatus } from './scheduler';

/*
 * The Friday ledger: for one Friday, what became of every active mosque's sermon recording.
 */

export const fridayStatusSchema = z.enum([
  'scheduled',
  'recording',
  'captured',
  'partial',
  'failed',
  'missed',
  'cancelled',
  'unschedulable',
]);
export type FridayStatus = z.infer<typeof fridayStatusSchema>;
export const FRIDAY_STATUSES = fridayStatusSchema.options;

const FRIDAY_STATUS_OF_JOB: Record<JobStatus, FridayStatus> = {
  scheduled: 'scheduled',
  launching: 'scheduled',
  launched: 'recording',
  captured: 'captured',
  partial: 'partial',
  failed: 'failed',
  missed: 'missed',
  cancelled: 'cancelled',
};

/** A recording job's status as the ledger shows it (the server and the mocks both map jobs this way). */
export function fridayStatusOfJob(status: JobStatus): FridayStatus {
  return FRIDAY_STATUS_OF_JOB[status];
}

/** The Friday a ledger shows by default: today when it is Friday (UTC), else the coming one. */
export function comingFriday(now: Date): string {
  const days = (5 - now.getUTCDay() + 7) % 7;
  return new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** `1 h 5 min`, `12 min 30 s`, `40 s`: durations as an operator reads them. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return s > 0 && m < 10 ? `${m} min ${s} s` : `${m} min`;
  return `${s} s`;
}

export const fridayRowSchema = z.object({
  mosque_id: z.string(),
  mosque_name: z.string(),
  /** The mosque-local date of the Friday (YYYY-MM-DD). */
  friday: z.string(),
  /** Null when the mosque cannot be scheduled. */
  recording_start: instantSchema.nullable(),
  window_end: instantSchema.nullable(),
  status: fridayStatusSchema,
  expected_seconds: z.number().nullable(),
  /** Seconds of the window the media covers (so far, while recording). */
  covered_seconds: z.number().nullable(),
  /** Why the row is not (or not yet) captured; null when there is nothing to explain. */
  reason: z.string().nullable(),
  job_id: z.string().nullable(),
  recording_ids: z.array(z.string()),
  alarm_ids: z.array(z.string()),
  /** The parts of the window its recording has no media for, each with its cause and the content lost. */
  gaps: z.array(recordingGapSchema),
  /** The operator who stopped its recording before the window ended; null when no one did. */
  stopped_by: z.string().nullable(),
});
export type FridayRow = z.infer<typeof fridayRowSchema>;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'Not a calendar date',
  )
  .refine((value) => new Date(`${value}T00:00:00Z`).getUTCDay() === 5, 'Date must be a Friday');

export const FRIDAY_SORT_FIELDS = ['mosque_name', 'mosque_id', 'recording_start', 'status', 'covered_seconds'] as const;
export type FridaySortField = (typeof FRIDAY_SORT_FIELDS)[number];

/**
 * GET /api/scheduler/fridays?date=YYYY-MM-DD (default: the coming or current Friday). With any of q (the
 * mosque's name or id), sort, order, limit, offset or status it answers one page of the ledger and
 * `total`; without them, every row as before.
 */
export const fridaysQuerySchema = z.strictObject({
  date: isoDate.optional(),
  ...searchSortShape(FRIDAY_SORT_FIELDS),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
  status: fridayStatusSchema.optional(),
});
export type FridaysQuery = z.input<typeof fridaysQuerySchema>;
export type ParsedFridaysQuery = z.output<typeof fridaysQuerySchema>;

export const fridaysResponseSchema = envelope(
  z.object({
    friday: z.string(),
    fridays: z.array(fridayRowSchema),
    /** Every row matching a page query (absent without one). */
    total: z.number().int().optional(),
    /** With a page query: the Friday's rows of each status, all of them (for the status filter's menu). */
    counts: z.record(fridayStatusSchema, z.number().int()).optional(),
  }),
);

/** How many of the rows have each status. */
export function countByStatus(rows: readonly FridayRow[]): Record<FridayStatus, number> {
  const counts = Object.fromEntries(FRIDAY_STATUSES.map((status) => [status, 0])) as Record<FridayStatus, number>;
  for (const row of rows) counts[row.status]++;
  return counts;
}

/** The ledger as asked: every row without a page query, else one page of the matching rows, their count and the counts by status. */
export function fridaysPageOf(
  rows: FridayRow[],
  query: ParsedFridaysQuery,
): { fridays: FridayRow[]; total?: number; counts?: Record<FridayStatus, number> } {
  const { date: _date, status, ...page } = query;
  if (status === undefined && Object.values(page).every((value) => value === undefined)) return { fridays: rows };
  const { rows: fridays, total } = pageInMemory(
    status ? rows.filter((row) => row.status === status) : rows,
    { ...page, limit: page.limit ?? 10, offset: page.offset ?? 0 },
    {
      searched: (row) => [row.mosque_name, row.mosque_id],
      sortValue: (row, field) => (field === 'mosque_name' ? row.mosque_name.toLowerCase() : row[field]),
      ties: [],
      defaultOrder: 'asc',
    },
  );
  return { fridays, total, counts: countByStatus(rows) };
}
