import { z } from 'zod';
import { envelope, instantSchema } from './common';

/**
 * Every action the activity log knows, with the sentence that describes it: `{actor}` is who did it
 * (or "System" for the server itself, e.g. the scheduler), `{target}` what it was done to.
 * Modules record these through the activity service; add a name here before recording a new kind.
 */
export const ACTIVITY_ACTIONS = {
  'auth.login': '{actor} signed in',
  'auth.login_failed': 'Failed sign-in as {target}',
  'auth.logout': '{actor} signed out',
  'auth.password_change': '{actor} changed their password',
  'user.create': '{actor} created user {target}',
  'user.update': '{actor} updated user {target}',
  'github.configure': '{actor} configured repository access to {target}',
  'instance.launch': '{actor} launched instance {target}',
  'instance.schedule': '{actor} scheduled a recording at a chosen time: {target}',
  'instance.terminate': '{actor} terminated instance {target}',
  'instance.emergency_stop': '{actor} ran an emergency stop of all instances',
  'instance.breaker_close': '{actor} closed the launch breaker: launches resume',
  'image.create': '{actor} created image {target}',
  'image.delete': '{actor} deleted image {target}',
  'mosque.create': '{actor} added mosque {target}',
  'mosque.update': '{actor} updated mosque {target}',
  'mosque.delete': '{actor} deleted mosque {target}',
  'config.generate': '{actor} generated recording configurations',
  'schedule.run': '{actor} scheduled Friday recordings',
  'schedule.cancel': '{actor} cancelled scheduled job {target}',
  'schedule.restore': '{actor} restored cancelled job {target}',
  'scheduler.start': '{actor} started the scheduler',
  'scheduler.stop': '{actor} stopped the scheduler',
  'recording.delete': '{actor} deleted recording {target}',
  'recording.expire': 'Recording {target} removed after the retention period',
  'alarm.raise': 'Alarm raised: {target}',
  'alarm.resolve': 'Alarm resolved: {target}',
  'alarm.acknowledge': '{actor} acknowledged alarm: {target}',
  'alarm.silence': '{actor} silenced the notifications of {target}',
  'alarm.silence_lift': '{actor} lifted the silence of {target}',
} as const;

export type ActivityAction = keyof typeof ACTIVITY_ACTIONS;

/** Who did it; null for the server itself (the scheduler, start-up) or an unknown caller (a failed sign-in). */
export const activityActorSchema = z.object({ id: z.number().int().nullable(), username: z.string() });
/** What it was done to: a type (user, instance, image, mosque, repository, job), its id, and a readable name if any. */
export const activityTargetSchema = z.object({ type: z.string(), id: z.string(), label: z.string().nullable() });

export const activityEntrySchema = z.object({
  id: z.number().int(),
  at: instantSchema,
  actor: activityActorSchema.nullable(),
  /** One of ACTIVITY_ACTIONS; typed as text so entries written by a newer server still read. */
  action: z.string(),
  target: activityTargetSchema.nullable(),
  /** What changed or what was asked; never a password or token. */
  detail: z.record(z.string(), z.unknown()).nullable(),
  /** One human sentence, e.g. "admin launched instance i-0abc". */
  summary: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const ACTIVITY_DEFAULT_LIMIT = 50;
export const ACTIVITY_MAX_LIMIT = 200;

/** GET /api/activity?limit=50[&before=<id>] — newest first; `before` pages back. */
export const activityListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(ACTIVITY_MAX_LIMIT).default(ACTIVITY_DEFAULT_LIMIT),
  before: z.coerce.number().int().positive().optional(),
});

export const activityListResponseSchema = envelope(z.object({ entries: z.array(activityEntrySchema) }));

/** The sentence for an entry, from its action's template. */
export function describeActivity(entry: Pick<ActivityEntry, 'actor' | 'action' | 'target'>): string {
  const template = (ACTIVITY_ACTIONS as Record<string, string>)[entry.action] ?? `{actor} ${entry.action} {target}`;
  return template
    .replace('{actor}', entry.actor?.username ?? 'System')
    .replace('{target}', entry.target ? (entry.target.label ?? entry.target.id) : '')
    .trim();
}
