import { z } from 'zod';
import { envelope, instantSchema } from './common';

/*
 * The Friday ledger: for one Friday, what became of every active mosque's sermon recording.
 */

export const fridayStatusSchema = z.enum(['scheduled', 'recording', 'captured', 'partial', 'failed', 'missed', 'cancelled', 'unschedulable']);
export type FridayStatus = z.infer<typeof fridayStatusSchema>;
export const FRIDAY_STATUSES = fridayStatusSchema.options;

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
});
export type FridayRow = z.infer<typeof fridayRowSchema>;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'Not a calendar date')
  .refine((value) => new Date(`${value}T00:00:00Z`).getUTCDay() === 5, 'Date must be a Friday');

/** GET /api/scheduler/fridays?date=YYYY-MM-DD (default: the coming or current Friday). */
export const fridaysQuerySchema = z.strictObject({ date: isoDate.optional() });
export type FridaysQuery = z.input<typeof fridaysQuerySchema>;

export const fridaysResponseSchema = envelope(z.object({ friday: z.string(), fridays: z.array(fridayRowSchema) }));
export type FridaysResponse = z.infer<typeof fridaysResponseSchema>;
