import { z } from 'zod';
import { envelope, instantSchema } from './common';
import { refuseFormatControls } from './display-text';
import { mosqueIdSchema } from './mosques';

/*
 * Alarms: what an operator must know about a Friday that is not being recorded in full. A module
 * raises one alarm per cause (a `key` such as `recorder_died:<instance id>`); it stays open until the
 * cause clears (resolved) and an operator may acknowledge it meanwhile.
 */

/** Each kind of alarm and the severity it is raised with. */
export const ALARM_KINDS = {
  /** A scheduled launch failed after all its retries. */
  launch_failed: 'critical',
  /** A Friday whose recording was never launched. */
  missed: 'critical',
  /** No media for more than 60 s while the window was open. */
  stall: 'warning',
  /** The recorder process or instance ended before its window did. */
  recorder_died: 'warning',
  /** A recorder that could not keep up on its machine (a transcode short of CPU) let segments of the stream go. */
  recorder_overloaded: 'warning',
  /** A Friday that ended with no media at all. */
  capture_failed: 'critical',
  /** A Friday that ended with less than the whole window recorded. */
  capture_partial: 'warning',
  /** An active mosque that cannot be scheduled (no stream source, no coordinates and no fixed time). */
  unschedulable: 'warning',
  /** A check 10 minutes before a recording start failed (provider, stream, disk). */
  preflight: 'critical',
  /** A server died with recorders running on a host where no other server can follow them. */
  server_gone: 'critical',
  /** A machine still running past its window plus the grace, or tagged as ours and unknown: terminated. */
  instance_reaped: 'warning',
  /** Launches failing across the fleet (e.g. 5 in 10 minutes): new launches are held until it closes. */
  launch_breaker: 'critical',
  /** A launch refused at AWS_MAX_INSTANCES, or a coming wave that would not fit the account's or that limit. */
  fleet_capacity: 'critical',
  /** A live recording whose sound has been silent (under -50 LUFS) for CONTENT_ALARM_SECONDS, or a captured one silent most of its window. */
  audio_silent: 'warning',
  /** A live recording whose stream carries a picture and no sound track. */
  audio_missing: 'warning',
  /** A live recording whose picture has not changed for CONTENT_ALARM_SECONDS. */
  picture_frozen: 'warning',
  /** A live recording whose picture has been black for CONTENT_ALARM_SECONDS. */
  picture_black: 'warning',
} as const;

export type AlarmKind = keyof typeof ALARM_KINDS;
export const alarmKindSchema = z.enum(Object.keys(ALARM_KINDS) as [AlarmKind, ...AlarmKind[]]);
/** `info` tells of a planned change an operator should know of (a server stopped for an upgrade): told once, never a page. */
export const alarmSeveritySchema = z.enum(['critical', 'warning', 'info']);

export const alarmSchema = z.object({
  id: z.string(),
  kind: alarmKindSchema,
  severity: alarmSeveritySchema,
  mosque_id: z.string().nullable(),
  mosque_name: z.string().nullable(),
  job_id: z.string().nullable(),
  instance_id: z.string().nullable(),
  /** One sentence a person understands: what is wrong and why. */
  message: z.string(),
  raised_at: instantSchema,
  acknowledged_at: instantSchema.nullable(),
  /** Username of whoever acknowledged it. */
  acknowledged_by: z.string().nullable(),
  /** Set when the cause cleared; an alarm is open while this is null. */
  resolved_at: instantSchema.nullable(),
});
export type Alarm = z.infer<typeof alarmSchema>;

export const ALARMS_MAX_LIMIT = 500;

/** GET /api/alarms?status=open|all[&limit=] — newest first. */
export const alarmsQuerySchema = z.strictObject({
  status: z.enum(['open', 'all']).default('open'),
  limit: z.coerce.number().int().min(1).max(ALARMS_MAX_LIMIT).default(200),
});

/** How far one alarm change got through one outbound channel (webhook, e-mail). */
export const alarmDeliverySchema = z.object({
  channel: z.enum(['webhook', 'email']),
  /** Which change of the alarm this delivery announces; `repeated`: the latest reminder that it is still open. */
  event: z.enum(['raised', 'repeated', 'resolved']),
  /** `retrying`: an attempt failed and another is scheduled; `failed`: every attempt failed. */
  state: z.enum(['pending', 'retrying', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_attempt_at: instantSchema.nullable(),
  next_attempt_at: instantSchema.nullable(),
  /** Why the last attempt failed (never the URL or a credential). */
  last_error: z.string().nullable(),
  delivered_at: instantSchema.nullable(),
});
export type AlarmDelivery = z.infer<typeof alarmDeliverySchema>;

/** An alarm as the list returns it: with the state of its outbound deliveries. */
export const listedAlarmSchema = alarmSchema.extend({ deliveries: z.array(alarmDeliverySchema) });
export type ListedAlarm = z.infer<typeof listedAlarmSchema>;

export const alarmsResponseSchema = envelope(z.object({ alarms: z.array(listedAlarmSchema) }));
export type AlarmsResponse = z.infer<typeof alarmsResponseSchema>;

export const alarmIdParamsSchema = z.strictObject({
  id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Alarm id may contain only letters, digits, "_" and "-"'),
});

export const acknowledgeAlarmResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: alarmSchema,
});

/*
 * Silences: an operator holds the notifications (webhook, e-mail) of one mosque's alarms, or of one kind
 * of alarm, until a time. Silenced alarms are still raised and listed; only their messages are held.
 */

/** The longest silence: a week (a longer one is a channel someone forgot about). */
export const SILENCE_MAX_MINUTES = 7 * 24 * 60;

export const alarmSilenceSchema = z.object({
  id: z.string(),
  /** The mosque whose alarms it holds; null: every mosque. */
  mosque_id: z.string().nullable(),
  mosque_name: z.string().nullable(),
  /** The kind of alarm it holds; null: every kind. */
  kind: alarmKindSchema.nullable(),
  /** Why, in the operator's words. */
  comment: z.string(),
  created_by: z.string(),
  starts_at: instantSchema,
  ends_at: instantSchema,
  /** Set when an operator lifted it before its end. */
  lifted_at: instantSchema.nullable(),
  lifted_by: z.string().nullable(),
});
export type AlarmSilence = z.infer<typeof alarmSilenceSchema>;

/** POST /api/alarms/silences: a mosque, a kind or both, for a number of minutes, with a comment. */
export const createSilenceBodySchema = z
  .strictObject({
    mosque_id: mosqueIdSchema.optional(),
    kind: alarmKindSchema.optional(),
    duration_minutes: z
      .number('duration_minutes must be a number of minutes')
      .int('duration_minutes must be a whole number of minutes')
      .min(1, 'A silence lasts at least 1 minute')
      .max(SILENCE_MAX_MINUTES, `A silence lasts at most ${SILENCE_MAX_MINUTES} minutes (a week)`),
    comment: z
      .string()
      .trim()
      .min(1, 'Say why in a comment')
      .max(500, 'The comment is longer than 500 characters')
      .superRefine(refuseFormatControls('The comment')),
  })
  .refine((body) => body.mosque_id !== undefined || body.kind !== undefined, {
    message: 'Name a mosque or an alarm kind to silence',
    path: ['mosque_id'],
  });
export type CreateSilenceBody = z.input<typeof createSilenceBodySchema>;

/** GET /api/alarms/silences?status=active|all — `all` adds those that ended or were lifted, newest first. */
export const silencesQuerySchema = z.strictObject({ status: z.enum(['active', 'all']).default('active') });

export const silenceIdParamsSchema = z.strictObject({
  id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Silence id may contain only letters, digits, "_" and "-"'),
});

export const silencesResponseSchema = envelope(z.object({ silences: z.array(alarmSilenceSchema) }));
export const silenceResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: alarmSilenceSchema,
});
