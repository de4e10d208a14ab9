import { z } from 'zod';
import type { LiveContent, RecordingContent as ContentResponse } from '../../contract/content';
import {
  CONTENT_CONDITIONS,
  RECENT_CONTENT_WINDOWS,
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
  recent: z.array(contentWindowSchema).max(RECENT_CONTENT_WINDOWS).optional(),
}) satisfies z.ZodType<ContentSummary>;

export const recordingContentFileSchema = z.object({
  summary: contentSummarySchema,
  windows: z.array(contentWindowSchema).max(MAX_WINDOWS),
}) satisfies z.ZodType<RecordingContent>;

/** A recording's content as the API answers it: the recorder's summary and the readings of the strip. */
export function contentResponse(summary: ContentSummary, windows: ContentWindow[]): ContentResponse {
  return {
    measured_seconds: summary.measuredSeconds,
    integrated_lufs: summary.integratedLufs,
    peak_dbfs: summary.peakDbfs,
    longest_silence_seconds: summary.longestSilenceSeconds,
    silent_seconds: summary.silentSeconds,
    frozen_seconds: summary.frozenSeconds,
    black_seconds: summary.blackSeconds,
    windows: windows.map((w) => ({
      start: w.start,
      measured_seconds: w.measured,
      loudness_lufs: w.loudness,
      momentary_max_lufs: w.momentaryMax,
      silent_seconds: w.silent,
      frozen_seconds: w.frozen,
      black_seconds: w.black,
    })),
  };
}

/** A running recording's content as its recorder last reported it: the strip of its last minutes, its conditions. */
export function liveContentResponse(summary: ContentSummary): LiveContent {
  return { ...contentResponse(summary, summary.recent ?? []), conditions: summary.conditions };
}
