import { z } from 'zod';
import { envelope, instantSchema } from './common';
import { recordingSchema, recordingStatusSchema, resourceIdSchema } from './instances';
import { searchSortShape, selectionSchema } from './list-query';
import { recordingContentSchema } from './content';

export { contentWindowSchema, recordingContentSchema, type ContentWindow, type RecordingContent } from './content';

/*
 * The recordings library (the Recordings page): every capture by Friday and mosque, its media served
 * with HTTP ranges (or from a signed link the <video> element can use without a bearer header), and
 * where recordings are stored with how much room is left.
 */

/** The library's sortable columns: `mosque` is the mosque's name, `friday` its day (ties by start). */
/**
 * The recorder's reason for a partial capture opens with its coverage ("Recorded 570 s of 600 s: …"): a
 * sentence that states the coverage itself keeps only what follows, so it is not said twice. Null when
 * nothing follows.
 */
export function reasonBeyondCoverage(reason: string | null): string | null {
  if (!reason) return null;
  const rest = reason.replace(/^Recorded [\d.]+ s of [\d.]+ s(?::\s*)?/, '').trim();
  return rest === '' ? null : rest;
}

export const RECORDING_SORT_FIELDS = ['friday', 'mosque', 'status', 'duration_seconds', 'bytes', 'started_at'] as const;
export type RecordingSortField = (typeof RECORDING_SORT_FIELDS)[number];

/**
 * GET /api/recordings?q=&sort=&order=&mosque_id=&friday=&status=&content_warnings=&instance_id=&limit=&offset= — newest
 * first unless sorted (then ascending unless `order=desc`). `q`: part of the mosque's name (either script),
 * its id or the recording's id.
 */
export const recordingsLibraryQuerySchema = z.strictObject({
  ...searchSortShape(RECORDING_SORT_FIELDS),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  instance_id: resourceIdSchema.optional(),
  mosque_id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9_-]+$/, 'Mosque id may contain only lowercase letters, digits, "_" and "-"')
    .optional(),
  /** The Friday (the mosque's local date) of a scheduled recording, or the UTC day of an ad-hoc one. */
  friday: z.iso.date('Friday must be a date (YYYY-MM-DD)').optional(),
  status: recordingStatusSchema.optional(),
  /** `1`: only recordings that raised a content alarm (silent, no sound, frozen, black) or ended with a content warning. */
  content_warnings: z.enum(['1']).optional(),
});
export type RecordingsLibraryQuery = z.input<typeof recordingsLibraryQuerySchema>;
export type RecordingsPageQuery = z.output<typeof recordingsLibraryQuerySchema>;

export const storeKindSchema = z.enum(['local', 's3']);

/** A recording as the library lists it: names, not only ids, and whether its media can be played. */
export const libraryRecordingSchema = recordingSchema.extend({
  mosque_name: z.string().nullable(),
  /** The Friday it was scheduled for (mosque's local date), or the UTC day it started for an ad-hoc capture. */
  friday: z.string(),
  job_id: z.string().nullable(),
  /** True when a non-empty media file is in the store: only then is it offered to play or download. */
  media_available: z.boolean(),
  /** Where its media is kept: the server's disk, or a bucket (played through a pre-signed redirect). */
  store: storeKindSchema,
});
export type LibraryRecording = z.infer<typeof libraryRecordingSchema>;

export const recordingsLibraryResponseSchema = envelope(
  z.object({ recordings: z.array(libraryRecordingSchema), total: z.number().int() }),
);
export type RecordingsLibraryResponse = z.infer<typeof recordingsLibraryResponseSchema>;

export const storedFileSchema = z.object({ name: z.string(), bytes: z.number().int() });

export const recordingDetailsSchema = libraryRecordingSchema.extend({
  /** The pieces the recorder delivered (segments) and the joined file, as found in the store. */
  files: z.array(storedFileSchema),
});
export type RecordingDetails = z.infer<typeof recordingDetailsSchema>;
export const recordingDetailsResponseSchema = envelope(recordingDetailsSchema);

/** GET /api/recordings/{id}/content: null while it records, and for a recording whose content was not measured. */
export const recordingContentResponseSchema = envelope(recordingContentSchema.nullable());

/**
 * What of a recording a media link serves: the recording itself (no rendition), or `audio`, its sound
 * alone as AAC in M4A normalised to -16 LUFS, the whole window kept (docs/operations/storage.md).
 */
export const mediaRenditionSchema = z.enum(['audio']);
export type MediaRendition = z.infer<typeof mediaRenditionSchema>;

/** POST /api/recordings/{id}/media-link?rendition=audio: a link to the audio-only file instead. */
export const mediaLinkQuerySchema = z.strictObject({ rendition: mediaRenditionSchema.optional() });

/**
 * POST /api/recordings/{id}/media-link: a URL the browser may fetch without a bearer header until it
 * expires. `preparing`: the audio-only file is still being made (ask again in a few seconds; the URL
 * would wait for it).
 */
export const mediaLinkResponseSchema = envelope(
  z.object({ url: z.string(), expires_at: instantSchema, preparing: z.boolean().optional() }),
);
export type MediaLinkResponse = z.infer<typeof mediaLinkResponseSchema>;

/** The `token` of a signed media link: `<expiry seconds>.<session id>.<signature>`. */
export const mediaQuerySchema = z.strictObject({
  token: z
    .string()
    .max(200)
    .regex(/^\d{1,12}\.[0-9a-f-]{36}\.[A-Za-z0-9_-]{20,100}$/, 'Media link is invalid')
    .optional(),
  download: z.enum(['1']).optional(),
  /** Signed with the token: a link to one rendition opens no other. */
  rendition: mediaRenditionSchema.optional(),
});

export const storageUsageSchema = z.object({
  store: storeKindSchema,
  /** `local:<folder>` or `s3://bucket/prefix`. */
  location: z.string(),
  used_bytes: z.number().int(),
  /** Free space of the local store's disk; null for a bucket. */
  free_bytes: z.number().int().nullable(),
  /** When the figures were measured: the server measures again at most every 10 minutes (and after a delete). */
  measured_at: instantSchema,
  /** Days recordings are kept, or null when kept until deleted. */
  retention_days: z.number().int().nullable(),
});
export type StorageUsage = z.infer<typeof storageUsageSchema>;
export const storageUsageResponseSchema = envelope(storageUsageSchema);

export const deleteRecordingResponseSchema = z.object({ success: z.literal(true), message: z.string() });

/* ---------------------------------------------------------------- bulk */

export const RECORDING_BULK_MAX = 100;

/** The recordings a bulk action acts on: each named once. */
export const recordingBulkRequestSchema = z.strictObject({
  recording_ids: selectionSchema(resourceIdSchema, { one: 'recording', many: 'recordings' }, RECORDING_BULK_MAX),
});

/** A recording the action could not be done to, and why (not found, still recording, the store failed). */
export const recordingBulkFailureSchema = z.object({ id: z.string(), reason: z.string() });
export type RecordingBulkFailure = z.infer<typeof recordingBulkFailureSchema>;

/** POST /api/recordings/bulk-delete: each recording deleted as its single delete would be, or named as failed. */
export const recordingsBulkDeleteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ deleted: z.array(z.string()), failed: z.array(recordingBulkFailureSchema) }),
});
export type RecordingsBulkDeleteResult = z.infer<typeof recordingsBulkDeleteResponseSchema>['data'];

/** POST /api/recordings/media-links: a signed download link for each recording with media, or why not. */
export const recordingsMediaLinksResponseSchema = envelope(
  z.object({
    links: z.array(z.object({ id: z.string(), url: z.string(), expires_at: instantSchema })),
    failed: z.array(recordingBulkFailureSchema),
  }),
);
export type RecordingsMediaLinks = z.infer<typeof recordingsMediaLinksResponseSchema>['data'];

/** "3 recordings deleted", "1 recording deleted". */
export function recordingsDeletedMessage(count: number): string {
  return `${count} ${count === 1 ? 'recording' : 'recordings'} deleted`;
}
