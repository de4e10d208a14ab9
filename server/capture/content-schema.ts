import { z } from 'zod';
import {
  CONTENT_CONDITIONS,
  type ContentSummary,
  type ContentWindow,
  type RecordingContent,
} from '../../recorder/protocol';

/*
 * What a recorder writes of a recording's content (recorder/protocol.ts), checked where the server reads
 * it from a store a machine wrote to: metadata.json's `content` and the `<media>.content.json` beside
 * the media. Every window of the longest window the server allows, with room to spare.
 */

const MAX_WINDOWS = 10_000;
const lufs = z.number().nullable();

export const contentSummarySchema = z.object({
  measuredSeconds: z.number().nonnegative(),
  integratedLufs: lufs,
  peakDbfs: lufs,
  longestSilenceSeconds: z.number().nonnegative(),
  silentSeconds: z.number().nonnegative(),
  frozenSeconds: z.number().nonnegative(),
  blackSeconds: z.number().nonnegative(),
  conditions: z.array(
    z.object({ kind: z.enum(CONTENT_CONDITIONS), since: z.iso.datetime({ offset: true }), seconds: z.number() }),
  ),
}) satisfies z.ZodType<ContentSummary>;

const contentWindowSchema = z.object({
  start: z.iso.datetime({ offset: true }),
  measured: z.number().nonnegative(),
  loudness: lufs,
  blocks: z.number().int().nonnegative(),
  momentaryMax: lufs,
  silent: z.number().nonnegative(),
  frozen: z.number().nonnegative(),
  black: z.number().nonnegative(),
  video: z.boolean(),
}) satisfies z.ZodType<ContentWindow>;

export const recordingContentFileSchema = z.object({
  summary: contentSummarySchema,
  windows: z.array(contentWindowSchema).max(MAX_WINDOWS),
}) satisfies z.ZodType<RecordingContent>;
