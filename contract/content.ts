import { z } from 'zod';
import { instantSchema } from './common';

/*
 * What the recorders measured of a recording's content (docs/operations/content-assurance.md): the
 * loudness strip of a finished recording (GET /api/recordings/{id}/content) and, while it records, the
 * strip of its last minutes with the conditions going on (the instance details' `live_content`).
 */

/** One 10 s window of the loudness strip: its loudness and how much of it was silent, frozen or black. */
export const contentWindowSchema = z.object({
  start: instantSchema,
  /** Seconds of media measured in it (less than 10 where the recording has a gap). */
  measured_seconds: z.number(),
  /** Energy mean of its momentary loudness above -70 LUFS; null: no sound, or only silence. */
  loudness_lufs: z.number().nullable(),
  momentary_max_lufs: z.number().nullable(),
  silent_seconds: z.number(),
  frozen_seconds: z.number(),
  black_seconds: z.number(),
});
export type ContentWindow = z.infer<typeof contentWindowSchema>;

/** What the recorder measured of a finished recording's content (docs/operations/content-assurance.md). */
export const recordingContentSchema = z.object({
  measured_seconds: z.number(),
  /** EBU R128 integrated loudness; null when no sound was measured. */
  integrated_lufs: z.number().nullable(),
  peak_dbfs: z.number().nullable(),
  longest_silence_seconds: z.number(),
  silent_seconds: z.number(),
  frozen_seconds: z.number(),
  black_seconds: z.number(),
  windows: z.array(contentWindowSchema),
});
export type RecordingContent = z.infer<typeof recordingContentSchema>;

/** The content conditions a recorder reports (recorder/protocol.ts CONTENT_CONDITIONS). */
export const contentConditionKindSchema = z.enum(['audio_silent', 'audio_missing', 'picture_frozen', 'picture_black']);

/**
 * A running recording's content as its recorder last reported it: the totals so far, the strip of its
 * last 5 minutes (`windows`, settled readings about 25 s behind the live edge), and each condition going
 * on with where it began and the media seconds it has lasted.
 */
export const liveContentSchema = recordingContentSchema.extend({
  conditions: z.array(z.object({ kind: contentConditionKindSchema, since: instantSchema, seconds: z.number() })),
});
export type LiveContent = z.infer<typeof liveContentSchema>;
