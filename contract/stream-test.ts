import { z } from 'zod';
import { envelope, instantSchema } from './common';
import { mosqueIdSchema } from './mosques';
import { streamUrlSchema } from './instances';

/*
 * "Test stream": a short recording of a stream now, through the recorders' own capture path (egress
 * guard included), reported with what it carries and kept for a while as a playable clip.
 */

/** How long a test records: long enough for a few segments of any live stream and a key frame or two. */
export const STREAM_TEST_SECONDS = 30;
/** How long the clip of a test stays on the server before it is deleted. */
export const STREAM_TEST_CLIP_MINUTES = 15;

/** A URL, or a mosque: its own stream (ID_token) resolved on the server as its Friday recording will be. */
export const streamTestRequestSchema = z
  .strictObject({ url: streamUrlSchema.optional(), mosque_id: mosqueIdSchema.optional() })
  .refine((body) => (body.url === undefined) !== (body.mosque_id === undefined), {
    message: 'Give either a stream URL or a mosque id',
    path: ['url'],
  });
export type StreamTestRequest = z.input<typeof streamTestRequestSchema>;

export const streamTestIdParamsSchema = z.strictObject({
  id: z.string().regex(/^st-[a-z0-9]{6,40}$/, 'Not a stream test id'),
});

export const streamTestReportSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** Seconds of media recorded (a live stream gives about STREAM_TEST_SECONDS). */
  seconds: z.number(),
  bytes: z.number().int(),
  /** The picture's size as it is shown (an anamorphic source's width counts its pixels' shape). */
  video: z
    .object({ codec: z.string(), width: z.number().int(), height: z.number().int(), frame_rate: z.number().nullable() })
    .nullable(),
  audio: z
    .object({ codec: z.string(), sample_rate: z.number().int().nullable(), channels: z.number().int().nullable() })
    .nullable(),
  /** When the clip is deleted. */
  clip_expires_at: instantSchema,
});
export type StreamTestReport = z.infer<typeof streamTestReportSchema>;

export const streamTestResponseSchema = envelope(streamTestReportSchema);
