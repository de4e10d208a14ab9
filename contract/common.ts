import { z } from 'zod';

/** Every error the API returns: both field names the console reads carry the same sentence. */
export const errorBodySchema = z.object({
  success: z.literal(false),
  detail: z.string(),
  error: z.string(),
  /** For invalid input: each offending field's dotted path (`configs.0.width`) and its sentence, so forms can show it in place. */
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** `{ success: true, data }` — the envelope of every call whose result docs/reference.md reads as `data.*`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

/** An instant in UTC, ISO 8601 (`2026-11-27T11:29:00.000Z`). */
export const instantSchema = z.iso.datetime({ offset: true });

export const messageBodySchema = z.object({ success: z.literal(true), message: z.string() });
export type MessageBody = z.infer<typeof messageBodySchema>;
