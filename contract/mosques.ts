import { z } from 'zod';
import { instantSchema } from './common';
import { refuseFormatControls } from './display-text';
import { normalizeStreamUrl, streamUrlRefusal } from './instances';
import { BROADCAST_STATUSES } from './mosque-fields';

/*
 * Mosques, coordinates, prayer times and recording configurations (docs/reference.md sections 3, 5 and 7, "Config").
 */

/** docs/reference.md section 9: 10 characters, lowercase letters and digits. */
export const MOSQUE_ID_PATTERN = /^[a-z0-9]{10}$/;
export const MOSQUE_ID_LENGTH = 10;
/** A language code such as `en`, `ar`, `ur`, or a custom one such as `pt-BR`. */
export const LANGUAGE_CODE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]+)?$/;
/** A local clock time, 24-hour `HH:MM`. */
export const LOCAL_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
/** docs/reference.md: Generate defaults. */
export const GENERATE_DEFAULTS = { duration: 7200, width: 1080, height: 576, method: 'api' } as const;
/** docs/reference.md section 9: a recording starts 20 minutes before the Friday prayer. */
export const RECORDING_LEAD_MINUTES = 20;
/** Most map links one extraction call may carry. */
export const EXTRACT_MAX_LINKS = 200;

/** True for an IANA zone name this runtime knows (`Europe/London`, `UTC`), false for anything else. */
/**
 * Zones found valid so far. Building an Intl.DateTimeFormat to ask costs tens of microseconds, and
 * every mosque read through a schema asks (10,000 per list, 1,000 in a burst of creates); there are a
 * few hundred IANA zones, so only valid answers are kept and the set stays small.
 */
const knownTimeZones = new Set<string>();

export function isValidTimeZone(zone: string): boolean {
  if (knownTimeZones.has(zone)) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return false;
  }
  knownTimeZones.add(zone);
  return true;
}

export const mosqueIdSchema = z.string().regex(MOSQUE_ID_PATTERN, 'Mosque ID must be 10 lowercase letters or digits');
export const broadcastStatusSchema = z.enum(BROADCAST_STATUSES);
export type BroadcastStatus = z.infer<typeof broadcastStatusSchema>;

/** adhan's calculation methods, by adhan's own names. */
export const calculationMethodSchema = z.enum([
  'MuslimWorldLeague',
  'Egyptian',
  'Karachi',
  'UmmAlQura',
  'Dubai',
  'MoonsightingCommittee',
  'NorthAmerica',
  'Kuwait',
  'Qatar',
  'Singapore',
  'Tehran',
  'Turkey',
]);
export type CalculationMethod = z.infer<typeof calculationMethodSchema>;
/** What a prayer time record names as its method when the mosque's fixed Jumu'ah time was used. */
export const FIXED_TIME_METHOD = 'Fixed';

export const extractionMethodSchema = z.enum(['manual', 'map_link', 'map_link_redirect']);
export type ExtractionMethod = z.infer<typeof extractionMethodSchema>;

export const latitudeSchema = z
  .number()
  .min(-90, 'Latitude must be between -90 and 90')
  .max(90, 'Latitude must be between -90 and 90');
export const longitudeSchema = z
  .number()
  .min(-180, 'Longitude must be between -180 and 180')
  .max(180, 'Longitude must be between -180 and 180');
export const timeZoneSchema = z
  .string()
  .trim()
  .refine(isValidTimeZone, 'Timezone must be a valid IANA time zone such as Europe/London');
const languageSchema = z.string().trim().regex(LANGUAGE_CODE_PATTERN, 'Language codes look like en, ar or pt-BR');
const languagesSchema = z
  .array(languageSchema)
  .min(1, 'At least one language is required')
  .max(20, 'At most 20 languages')
  .transform((codes) => [...new Set(codes)]);

/** Optional text: `''` and `null` both mean "none"; absent means "not given" (unchanged on update). */
const text = (max: number) =>
  z
    .union([
      z.string().trim().max(max, `At most ${max} characters`).superRefine(refuseFormatControls('Text')),
      z.null(),
    ])
    .optional()
    .transform((value) => (value === '' ? null : value));

export const MAP_LINK_SCHEME_MESSAGE = 'Map link must be an http(s) link (or a link without its scheme)';

/**
 * A map link is pasted text with a link in it, shown as a link: one that opens with a scheme other
 * than http(s) (`javascript:`, `data:`, `file:`) would run or read something in the operator's browser.
 */
function refuseOtherSchemes(value: string | null | undefined, ctx: z.RefinementCtx): void {
  const scheme = value ? /^([a-z][a-z0-9+-]*):/i.exec(value)?.[1].toLowerCase() : undefined;
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https')
    ctx.addIssue({ code: 'custom', message: MAP_LINK_SCHEME_MESSAGE });
}
const mapLink = text(2048).superRefine(refuseOtherSchemes);

/** An ID_token written as a URL is the mosque's stream URL: refused and normalised as a launch's is (it is launched as it is stored). */
const isUrlToken = (token: string | null | undefined): token is string =>
  !!token && /^[a-z][a-z0-9+.-]*:\/\//i.test(token);
const idToken = text(500)
  .superRefine((token, ctx) => {
    const refusal = isUrlToken(token) ? streamUrlRefusal(token) : null;
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
  })
  .transform((token) => (isUrlToken(token) ? (normalizeStreamUrl(token) ?? token) : token));

const nullable = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]).optional();

/** The fields an operator sets; create and update differ only in what is required and defaulted. */
const editableFields = {
  name_ar: text(200),
  google_maps_url: mapLink,
  ID_token: idToken,
  latitude: nullable(latitudeSchema),
  longitude: nullable(longitudeSchema),
  timezone: z
    .union([timeZoneSchema, z.literal(''), z.null()])
    .optional()
    .transform((value) => (value === '' ? null : value)),
  city: text(200),
  district: text(200),
  country: text(200),
  country_code: z
    .union([
      z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2}$/, 'Country code must be two letters'),
      z.literal(''),
      z.null(),
    ])
    .optional()
    .transform((value) =>
      value === undefined ? undefined : value === '' || value === null ? null : value.toUpperCase(),
    ),
  calculation_method: nullable(calculationMethodSchema),
  fixed_jumuah_time: z
    .union([
      z.string().trim().regex(LOCAL_TIME_PATTERN, "Fixed Jumu'ah time must be HH:MM (24-hour)"),
      z.literal(''),
      z.null(),
    ])
    .optional()
    .transform((value) => (value === '' ? null : value)),
};

const coordinatesTogether = (value: { latitude?: number | null; longitude?: number | null }) =>
  (value.latitude === undefined || value.latitude === null) ===
  (value.longitude === undefined || value.longitude === null);
const COORDINATES_TOGETHER = { message: 'Latitude and longitude must be given together', path: ['longitude'] };

/** POST /api/config/mosques. Without mosque_id the server generates one. */
export const mosqueCreateRequestSchema = z
  .strictObject({
    mosque_id: mosqueIdSchema.optional(),
    name: z
      .string()
      .trim()
      .min(1, 'Name is required')
      .max(200, 'At most 200 characters')
      .superRefine(refuseFormatControls('Name')),
    languages: languagesSchema,
    active: z.boolean().default(true),
    broadcast_status: broadcastStatusSchema.default('inactive'),
    ...editableFields,
  })
  .refine(coordinatesTogether, COORDINATES_TOGETHER);
export type MosqueCreateRequest = z.input<typeof mosqueCreateRequestSchema>;

/**
 * PUT /api/config/mosques/{mosque_id}: fields absent stay as they are, `null` (or `''`) clears one.
 * mosque_id may be sent back but must equal the path's: it cannot change.
 */
export const mosqueUpdateRequestSchema = z.strictObject({
  mosque_id: z.string().optional(),
  name: z
    .string()
    .trim()
    .min(1, 'Name is required')
    .max(200, 'At most 200 characters')
    .superRefine(refuseFormatControls('Name'))
    .optional(),
  languages: languagesSchema.optional(),
  active: z.boolean().optional(),
  broadcast_status: broadcastStatusSchema.optional(),
  ...editableFields,
});
export type MosqueUpdateRequest = z.input<typeof mosqueUpdateRequestSchema>;

export const mosqueSchema = z.object({
  mosque_id: z.string(),
  name: z.string(),
  name_ar: z.string().nullable(),
  google_maps_url: z.string().nullable(),
  languages: z.array(z.string()),
  ID_token: z.string().nullable(),
  active: z.boolean(),
  broadcast_status: broadcastStatusSchema,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  timezone: z.string().nullable(),
  city: z.string().nullable(),
  district: z.string().nullable(),
  country: z.string().nullable(),
  country_code: z.string().nullable(),
  /** null: chosen by country when prayer times are computed. */
  calculation_method: calculationMethodSchema.nullable(),
  /** Local `HH:MM`; when set it is the Friday prayer time instead of the computed Dhuhr. */
  fixed_jumuah_time: z.string().nullable(),
  created_at: instantSchema,
  updated_at: instantSchema,
});
export type Mosque = z.infer<typeof mosqueSchema>;

/** `total`: every mosque matching a page query (absent from docs/reference.md's whole list, which is all of them). */
export const mosquesListResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ mosques: z.array(mosqueSchema), total: z.number().int().optional() }),
});
export const mosqueResponseSchema = z.object({ success: z.literal(true), data: mosqueSchema });
export const newMosqueIdResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ mosque_id: z.string() }),
});
export const mosqueDeletedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ mosque_id: z.string() }),
});

/** docs/reference.md section 3, Coordinates record. */
export const coordinatesRecordSchema = z.object({
  mosque_id: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string().nullable(),
  extraction_method: extractionMethodSchema,
});
export type CoordinatesRecord = z.infer<typeof coordinatesRecordSchema>;
export const coordinatesListResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ coordinates: z.array(coordinatesRecordSchema) }),
});

/**
 * POST /api/config/coordinates/extract. Each `urls` entry is resolved (mosque_id may be empty for a
 * mosque not yet created); each id of `mosque_ids` without an entry uses the mosque's stored link.
 */
export const extractRequestSchema = z.strictObject({
  mosque_ids: z.array(mosqueIdSchema).max(EXTRACT_MAX_LINKS).default([]),
  force_refresh: z.boolean().default(false),
  urls: z
    .array(
      z.strictObject({
        mosque_id: z.union([z.string().max(64), z.null()]).optional(),
        google_maps_url: z
          .string()
          .trim()
          .min(1, 'Map link is required')
          .max(2048, 'At most 2048 characters')
          .superRefine(refuseOtherSchemes),
      }),
    )
    .max(EXTRACT_MAX_LINKS)
    .default([]),
});
export type ExtractRequest = z.input<typeof extractRequestSchema>;

export const extractionResultSchema = z.object({
  mosque_id: z.string().nullable(),
  google_maps_url: z.string().nullable(),
  success: z.boolean(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  timezone_guess: z.string().nullable(),
  extraction_method: extractionMethodSchema.nullable(),
  /** Whether the coordinates were saved on the mosque. */
  stored: z.boolean(),
  error: z.string().optional(),
});
export type ExtractionResult = z.infer<typeof extractionResultSchema>;
export const extractResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ extraction_results: z.array(extractionResultSchema) }),
});

/** POST /api/config/geocode. */
export const geocodeRequestSchema = z.strictObject({ latitude: latitudeSchema, longitude: longitudeSchema });
export const geocodeResultSchema = z.object({
  city: z.string().nullable(),
  district: z.string().nullable(),
  country: z.string().nullable(),
  country_code: z.string().nullable(),
  timezone: z.string().nullable(),
});
export type GeocodeResult = z.infer<typeof geocodeResultSchema>;
export const geocodeResponseSchema = z.object({ success: z.literal(true), data: geocodeResultSchema });

/** docs/reference.md section 3, Prayer time record. Instants in UTC; `*_time` fields are local `HH:MM` in `timezone`. */
export const prayerTimeRecordSchema = z.object({
  mosque_id: z.string(),
  mosque_name: z.string(),
  friday_prayer: instantSchema,
  recording_start: instantSchema,
  recording_time: z.string(),
  prayer_time: z.string(),
  timezone: z.string(),
  /** An adhan method name, or `Fixed` when the mosque's fixed Jumu'ah time was used. */
  calculation_method: z.string(),
});
export type PrayerTimeRecord = z.infer<typeof prayerTimeRecordSchema>;
/** GET /api/config/prayer-times?mosque_ids=a,b: only those mosques' (a table's page); without it, every mosque's. */
export const prayerTimesQuerySchema = z.strictObject({
  mosque_ids: z
    .string()
    .max(12_000, 'At most 1000 mosque ids')
    .optional()
    .transform((ids) =>
      ids === undefined
        ? undefined
        : ids
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
    ),
});
export type PrayerTimesQuery = z.input<typeof prayerTimesQuerySchema>;

export const prayerTimesResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ prayer_times: z.array(prayerTimeRecordSchema) }),
});

export const recordingMethodSchema = z.enum(['api', 'sequential']);
export type RecordingMethod = z.infer<typeof recordingMethodSchema>;

/** POST /api/config/generate (docs/reference.md section 3, Generate settings). No mosque_ids: every active mosque. */
export const generateRequestSchema = z.strictObject({
  mosque_ids: z.array(mosqueIdSchema).max(10_000).default([]),
  duration: z
    .number()
    .int()
    .min(60, 'Duration must be at least 60 seconds')
    .max(12 * 3600, 'Duration must be at most 12 hours')
    .default(GENERATE_DEFAULTS.duration),
  method: recordingMethodSchema.default(GENERATE_DEFAULTS.method),
  api_base_url: z
    .union([z.literal(''), z.null(), z.url({ protocol: /^https?$/, error: 'API base URL must be an http(s) URL' })])
    .optional()
    .transform((value) => value || undefined),
  width: z.number().int().min(16).max(7680).default(GENERATE_DEFAULTS.width),
  height: z.number().int().min(16).max(4320).default(GENERATE_DEFAULTS.height),
});
export type GenerateRequest = z.input<typeof generateRequestSchema>;

/** One launch configuration in a generated file; `npm run record -- --config file.json` accepts the same. */
export const recordingConfigSchema = z.object({
  url: z.string().min(1),
  duration: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  method: recordingMethodSchema,
  api_base_url: z.string().optional(),
  mosque_id: z.string().nullable().optional(),
  mosque_name: z.string().nullable().optional(),
  friday_prayer: instantSchema.nullable().optional(),
  recording_start: instantSchema.nullable().optional(),
  timezone: z.string().nullable().optional(),
});
export type RecordingConfig = z.infer<typeof recordingConfigSchema>;

export const generateResultSchema = z.object({
  total_configs: z.number().int(),
  recordings: z.array(recordingConfigSchema),
  /** Selected mosques that produced no configuration, and why (inactive, no stream identifier). */
  skipped: z.array(z.object({ mosque_id: z.string(), reason: z.string() })),
});
export type GenerateResult = z.infer<typeof generateResultSchema>;
export const generateResponseSchema = z.object({ success: z.literal(true), data: generateResultSchema });

/** A generated file: the `data` object of the generate call, or its bare `recordings` array. */
export const recordingConfigFileSchema = z.union([
  z.array(recordingConfigSchema),
  z.object({ recordings: z.array(recordingConfigSchema) }).transform((file) => file.recordings),
]);
