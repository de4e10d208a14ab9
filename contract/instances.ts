import { z } from 'zod';
import { envelope, instantSchema } from './common';
import { liveContentSchema } from './content';

export const instanceStateSchema = z.enum(['pending', 'running', 'stopping', 'stopped', 'terminated']);
export type InstanceState = z.infer<typeof instanceStateSchema>;

/** States in which an instance still holds a recorder: they count in the summary and can be terminated. */
export const ACTIVE_INSTANCE_STATES = ['pending', 'running'] as const satisfies readonly InstanceState[];

/**
 * `captured` only when the media covers at least 99% of the recording window; `partial` when some
 * media was recorded; `failed` when none was (each with its reason).
 */
export const recordingStatusSchema = z.enum(['recording', 'captured', 'partial', 'failed']);
export type RecordingStatus = z.infer<typeof recordingStatusSchema>;

export const captureProviderKindSchema = z.enum(['local', 'aws']);
export type CaptureProviderKind = z.infer<typeof captureProviderKindSchema>;

/** One recording instance as the console lists it (docs/reference.md section 3, Instance). */
export const instanceSchema = z.object({
  id: z.string(),
  instance_id: z.string(),
  name: z.string(),
  state: instanceStateSchema,
  instance_type: z.string(),
  runtime_hours: z.number(),
  mosque_id: z.string().nullable(),
  launch_time: instantSchema,
  url: z.string(),
  method: z.string(),
  duration: z.number().int(),
  recording_status: recordingStatusSchema.nullable(),
});
export type Instance = z.infer<typeof instanceSchema>;

/** Why a part of a recording's window has no media (recorder/protocol.ts keeps the same list). */
export const gapCauseSchema = z.enum([
  'not_live_yet',
  'stream_dropped',
  'stream_stalled',
  'stream_refused',
  'sequence_reset',
  'recorder_down',
  'recorder_late',
  'recorder_overloaded',
  'server_down',
  'store_unreachable',
]);
export type GapCause = z.infer<typeof gapCauseSchema>;

/**
 * A part of the window without media: its cause, a sentence with the detail, and the seconds of content
 * the stream offered then that the recording does not hold (0 when nothing was on the air).
 */
export const recordingGapSchema = z.object({
  start: instantSchema,
  end: instantSchema,
  cause: gapCauseSchema,
  reason: z.string(),
  content_lost_seconds: z.number(),
});
export type RecordingGap = z.infer<typeof recordingGapSchema>;

/** One capture: the file a recorder writes for one instance. */
export const recordingSchema = z.object({
  id: z.string(),
  instance_id: z.string(),
  mosque_id: z.string().nullable(),
  url: z.string(),
  status: recordingStatusSchema,
  started_at: instantSchema,
  ended_at: instantSchema.nullable(),
  bytes: z.number().int(),
  duration_seconds: z.number().nullable(),
  file_name: z.string().nullable(),
  reason: z.string().nullable(),
  /** Where the console downloads the file (bearer token required); null while recording, or when there is no file with media on this server. */
  download_url: z.string().nullable(),
  /** Length of the recording window in seconds (recording start to window end). */
  expected_seconds: z.number().nullable(),
  /** Seconds of the window the recorded media covers, measured from the media. */
  covered_seconds: z.number().nullable(),
  /** Parts of the window without media, UTC, each with why. */
  gaps: z.array(recordingGapSchema),
  /** Times media came back after the stream dropped. */
  reconnects: z.number().int(),
  /** Who stopped it before its window ended (an operator's terminate or emergency stop); null when no one did. */
  stopped_by: z.string().nullable(),
});
export type Recording = z.infer<typeof recordingSchema>;

/** The reason an operator's stop gives a recording: "Stopped by <username>", or "Emergency stop by <username>". */
const OPERATOR_STOP_REASON = /^(?:Stopped|Emergency stop) by (.+)$/;

/** The operator a recording's reason says stopped it, or null (the server fills `stopped_by` with it). */
export function operatorWhoStopped(reason: string | null): string | null {
  return (reason && OPERATOR_STOP_REASON.exec(reason)?.[1]) ?? null;
}

/* ---------------------------------------------------------------- launch config and requests */

/** Schemes a recorder may capture from. Files, local paths and ffmpeg's special protocols are refused. */
export const STREAM_URL_PROTOCOLS = ['http:', 'https:', 'rtmp:', 'rtmps:', 'rtsp:', 'rtsps:', 'srt:'] as const;
export const STREAM_URL_MESSAGE = 'Stream URL must be an http(s), rtmp(s), rtsp(s) or srt URL with a host';

/** C0 control characters and DEL (NUL cannot even be stored in PostgreSQL text); `allowed` lists exceptions. */
export function hasControlCharacters(value: string, allowed = ''): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if ((code < 0x20 || code === 0x7f) && !allowed.includes(char)) return true;
  }
  return false;
}

/**
 * What may stand between "//" and the path: RFC 3986's authority characters, and letters of any script
 * (an international host name, which the normaliser writes in punycode).
 */
const AUTHORITY = /^[\p{L}\p{N}\-._~%!$&'()*+,;=:[\]]*(?:@[\p{L}\p{N}\-._~%!$&'()*+,;=:[\]]*)?$/u;

export const STREAM_AUTHORITY_MESSAGE =
  "Stream URL host part may hold only letters, digits and -._~%!$&'()*+,;=:[] around one @ (no backslash, space or control character)";

/**
 * Why a stream URL is refused, or null. An authority the normaliser would read differently from ffmpeg
 * is refused rather than repaired: `http://8.8.8.8\@127.0.0.1/` is host 8.8.8.8 to WHATWG (which reads
 * `\` as `/`) and 127.0.0.1 to ffmpeg (which takes everything before the last `@` as user info).
 */
export function streamUrlRefusal(value: string): string | null {
  // A host right after "//": WHATWG parsing turns "http:///x" into host "x", but ffmpeg reads an empty host (tcp://:80).
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(value)?.[1];
  if (authority === undefined) return STREAM_URL_MESSAGE;
  // Whitespace and control characters have no place anywhere in a stream URL.
  if (!AUTHORITY.test(authority) || /\s/.test(value) || hasControlCharacters(value)) return STREAM_AUTHORITY_MESSAGE;
  const host = authority.slice(authority.indexOf('@') + 1);
  if (host === '' || host.startsWith(':')) return STREAM_URL_MESSAGE;
  try {
    const url = new URL(value);
    return (STREAM_URL_PROTOCOLS as readonly string[]).includes(url.protocol) && url.hostname !== ''
      ? null
      : STREAM_URL_MESSAGE;
  } catch {
    return STREAM_URL_MESSAGE;
  }
}

/** The one spelling of a stream URL that is stored and handed on (`new URL(raw).href`), or null when it is refused. */
export function normalizeStreamUrl(value: string): string | null {
  return streamUrlRefusal(value) === null ? new URL(value).href : null;
}

export const LAUNCH_DEFAULTS = { duration: 7200, width: 1280, height: 720, method: 'api', max_workers: 1 } as const;
export const LAUNCH_LIMITS = {
  maxDuration: 12 * 3600,
  minSide: 16,
  maxWidth: 3840,
  maxHeight: 2160,
  maxConfigs: 50,
  maxWorkers: 10,
  /** How far ahead a launch's start_at may be. */
  startAtDays: 14,
} as const;

const evenSide = (label: string, max: number) =>
  z
    .number()
    .int(`${label} must be a whole number`)
    .min(LAUNCH_LIMITS.minSide, `${label} must be at least ${LAUNCH_LIMITS.minSide}`)
    .max(max, `${label} must be at most ${max}`)
    .refine((n) => n % 2 === 0, `${label} must be an even number`);

export const streamUrlSchema = z
  .string()
  .trim()
  .min(1, 'Stream URL is required')
  .max(2048)
  .superRefine((value, ctx) => {
    const refusal = streamUrlRefusal(value);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
  })
  .transform((value) => normalizeStreamUrl(value) ?? value);

/** Mosque ids name a folder of recordings, so they are kept path-safe. Empty means none. */
export const launchMosqueIdSchema = z
  .string()
  .trim()
  .max(64)
  .regex(/^[a-z0-9_-]*$/, 'Mosque id may contain only lowercase letters, digits, "_" and "-"')
  .nullish()
  .transform((value) => (value ? value : null));

/** docs/reference.md section 3, Launch config. */
export const launchConfigSchema = z.strictObject({
  url: streamUrlSchema,
  duration: z
    .number()
    .int('Duration must be a whole number of seconds')
    .min(1, 'Duration must be at least 1 second')
    .max(LAUNCH_LIMITS.maxDuration, `Duration must be at most ${LAUNCH_LIMITS.maxDuration} seconds`)
    .default(LAUNCH_DEFAULTS.duration),
  width: evenSide('Width', LAUNCH_LIMITS.maxWidth).default(LAUNCH_DEFAULTS.width),
  height: evenSide('Height', LAUNCH_LIMITS.maxHeight).default(LAUNCH_DEFAULTS.height),
  mosque_id: launchMosqueIdSchema,
  method: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_-]+$/, 'Method may contain only letters, digits, "_" and "-"')
    .default(LAUNCH_DEFAULTS.method),
  /**
   * When the window opens (absent: now). Up to LAUNCH_LIMITS.startAtDays ahead; the recorder is
   * launched the provider's lead time before it. Checked against the server's clock when launched.
   */
  start_at: instantSchema.optional(),
});
export type LaunchConfig = z.infer<typeof launchConfigSchema>;
export type LaunchConfigInput = z.input<typeof launchConfigSchema>;

export const launchRequestSchema = z.strictObject({
  configs: z.array(launchConfigSchema).min(1, 'At least one launch config is required').max(LAUNCH_LIMITS.maxConfigs),
  max_workers: z.number().int().min(1).max(LAUNCH_LIMITS.maxWorkers).default(LAUNCH_DEFAULTS.max_workers),
});
export type LaunchRequest = z.input<typeof launchRequestSchema>;

export const launchFailureSchema = z.object({
  index: z.number().int(),
  mosque_id: z.string().nullable(),
  error: z.string(),
});

/** A launch whose window opens later than the lead time: a one-off scheduler job launches it. */
export const scheduledLaunchSchema = z.object({
  index: z.number().int(),
  job_id: z.string(),
  mosque_id: z.string().nullable(),
  /** When the recorder is launched: the window's start less the provider's lead time. */
  launch_at: instantSchema,
  window_start: instantSchema,
  window_end: instantSchema,
});
export type ScheduledLaunch = z.infer<typeof scheduledLaunchSchema>;

export const launchResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    instances: z.array(instanceSchema),
    failed: z.array(launchFailureSchema),
    scheduled: z.array(scheduledLaunchSchema).default([]),
  }),
});
export type LaunchResponse = z.infer<typeof launchResponseSchema>;

/** Ids of instances (ours `cap-…` or the provider's `i-…`), recordings and images: letters, digits, `.`, `_`, `:`, `-`. */
export const resourceIdSchema = z
  .string()
  .trim()
  .min(1, 'Id is required')
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, 'Id may contain only letters, digits, ".", "_", ":" and "-"');

/* ---------------------------------------------------------------- terminate */

export const terminateRequestSchema = z.strictObject({
  instance_ids: z.array(resourceIdSchema).min(1, 'Select at least one instance').max(500),
});
export type TerminateRequest = z.infer<typeof terminateRequestSchema>;

export const terminateResultSchema = z.object({
  instance_id: z.string(),
  success: z.boolean(),
  /** State after the request (stopping when accepted); null when the instance is unknown. */
  state: instanceStateSchema.nullable(),
  message: z.string(),
});
export type TerminateResult = z.infer<typeof terminateResultSchema>;

export const terminateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ results: z.array(terminateResultSchema), terminated: z.number().int(), failed: z.number().int() }),
});
export type TerminateResponse = z.infer<typeof terminateResponseSchema>;

export const terminateAllQuerySchema = z.strictObject({ force: z.enum(['true', 'false']).optional() });

/* ---------------------------------------------------------------- reads */

export const instanceIdParamsSchema = z.strictObject({ id: resourceIdSchema });

export const instanceLogsQuerySchema = z.strictObject({
  lines: z.coerce.number().int().min(1).max(5000).default(100),
  live: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});

export const instanceLogsResponseSchema = envelope(
  z.object({ instance_id: z.string(), logs: z.array(z.string()), live: z.boolean() }),
);
export type InstanceLogsResponse = z.infer<typeof instanceLogsResponseSchema>;

export const instancesListResponseSchema = envelope(z.array(instanceSchema));
export type InstancesListResponse = z.infer<typeof instancesListResponseSchema>;

/** The details viewer: the listed fields plus where it runs, its frame size, its timeline and its recording. */
export const instanceDetailsSchema = instanceSchema.extend({
  provider: captureProviderKindSchema,
  provider_instance_id: z.string().nullable(),
  width: z.number().int(),
  height: z.number().int(),
  running_at: instantSchema.nullable(),
  ended_at: instantSchema.nullable(),
  state_reason: z.string().nullable(),
  job_id: z.string().nullable(),
  image_id: z.string().nullable(),
  recording: recordingSchema.nullable(),
  /** Its recording's content as the recorder last reported it, while it records; null otherwise, or not measured. */
  live_content: liveContentSchema.nullable(),
});
export type InstanceDetails = z.infer<typeof instanceDetailsSchema>;
export const instanceDetailsResponseSchema = envelope(instanceDetailsSchema);

export const recordingIdParamsSchema = z.strictObject({ id: resourceIdSchema });

/** The built-in test broadcast, when the server runs one (DEMO_STREAM). */
export const demoStreamResponseSchema = envelope(z.object({ url: z.string().nullable() }));
export type DemoStreamResponse = z.infer<typeof demoStreamResponseSchema>;
