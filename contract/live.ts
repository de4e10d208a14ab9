import { z } from 'zod';
import { alarmSchema } from './alarms';
import { userSchema } from './auth';
import { instanceSchema, recordingSchema } from './instances';

/** Largest websocket frame the server accepts from a console. */
export const LIVE_MAX_FRAME_BYTES = 64 * 1024;
/** Close code for a frame over LIVE_MAX_FRAME_BYTES (RFC 6455: message too big). */
export const LIVE_CLOSE_TOO_BIG = 1009;
export const LIVE_TOO_BIG_MESSAGE = 'Message too large: at most 64 KiB';
/** Close code for a socket that did not authenticate (policy violation). */
export const LIVE_CLOSE_UNAUTHORIZED = 1008;
/** Close code when the server cannot admit a socket now (its database is unavailable): try again later. */
export const LIVE_CLOSE_TRY_AGAIN = 1013;
/** How long the server waits for the first `client_connected` message. */
export const LIVE_AUTH_TIMEOUT_MS = 5000;

const instanceIdMessage = (action: 'request_logs' | 'subscribe_logs' | 'unsubscribe_logs') =>
  z.strictObject({ action: z.literal(action), instance_id: z.string().min(1).max(128) });

/** What the console sends. The first message must be `client_connected` with the session token. */
export const clientMessageSchema = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('client_connected'),
    timestamp: z.string().max(64),
    token: z.string().max(4096),
    /** The last event id this console received (from any server): the server replays what came after it. */
    last_event_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  }),
  z.strictObject({ action: z.literal('ping'), timestamp: z.string().max(64).optional() }),
  instanceIdMessage('request_logs'),
  instanceIdMessage('subscribe_logs'),
  instanceIdMessage('unsubscribe_logs'),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const systemStatusSchema = z.enum(['operational', 'degraded', 'down']);
export type SystemStatus = z.infer<typeof systemStatusSchema>;

export const launchOutcomeSchema = z.object({
  instance_id: z.string().nullable(),
  mosque_id: z.string().nullable(),
  job_id: z.string().nullable(),
  message: z.string(),
});

/**
 * Every event of the feed carries `event_id`, increasing across all the servers on one database; a
 * console that comes back sends the last one it received (`client_connected.last_event_id`), and
 * the server replays what it missed, ids it may have seen included (a console drops those), or
 * sends `refetch` when it no longer has them all.
 */
const eventId = { event_id: z.number().int().positive().optional() };

/** Changes of mosques and users, by id: a console asks again for what it shows. */
export const liveChangeSchema = z.enum(['created', 'updated', 'deleted']);

/** The events of the feed: numbered, relayed to every server's consoles, kept for consoles that come back. */
export const LIVE_EVENT_TYPES = [
  'instance_status_update',
  'recordings_update',
  'launch_complete',
  'launch_error',
  'alarm',
  'mosque_update',
  'user_update',
] as const;

/** Events relayed between servers but not replayed: initial_data carries their latest state. */
export const LIVE_SNAPSHOT_TYPES = ['instance_status_update', 'recordings_update'] as const;

/** What the server sends, by `type`. */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('welcome'),
    /** `last_event_id`: the newest event when this console connected (0: none yet); it resumes from there. */
    data: z.object({ user: userSchema, server_time: z.string(), last_event_id: z.number().int().min(0).optional() }),
  }),
  z.object({ type: z.literal('pong'), timestamp: z.string() }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({
    type: z.literal('initial_data'),
    data: z.object({
      instances: z.array(instanceSchema),
      recordings: z.array(recordingSchema),
      system_status: systemStatusSchema,
    }),
  }),
  z.object({ type: z.literal('instance_status_update'), data: z.array(instanceSchema), ...eventId }),
  z.object({ type: z.literal('recordings_update'), data: z.array(recordingSchema), ...eventId }),
  z.object({ type: z.literal('instance_logs'), instance_id: z.string(), logs: z.array(z.string()) }),
  z.object({ type: z.literal('launch_complete'), data: launchOutcomeSchema, ...eventId }),
  z.object({ type: z.literal('launch_error'), data: launchOutcomeSchema, ...eventId }),
  z.object({ type: z.literal('system_status_update'), data: z.object({ status: systemStatusSchema }) }),
  z.object({ type: z.literal('system_health'), data: z.object({ overall_health: systemStatusSchema }) }),
  /** Every open alarm, sent once after initial_data: a console that connects late sees them all. */
  z.object({ type: z.literal('alarms'), data: z.object({ alarms: z.array(alarmSchema) }) }),
  /** An alarm raised, acknowledged or resolved. */
  z.object({ type: z.literal('alarm'), data: alarmSchema, ...eventId }),
  /** A mosque created, changed (coordinates found included) or deleted. */
  z.object({
    type: z.literal('mosque_update'),
    data: z.object({ change: liveChangeSchema, mosque_id: z.string() }),
    ...eventId,
  }),
  /** An account created or changed (role, state, details). */
  z.object({
    type: z.literal('user_update'),
    data: z.object({ change: liveChangeSchema, user_id: z.number().int() }),
    ...eventId,
  }),
  /** Events this console missed are no longer kept: what it shows may be stale, so it asks again. */
  z.object({ type: z.literal('refetch'), data: z.object({ reason: z.string() }) }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
