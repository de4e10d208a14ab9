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
/** How long the server waits for the first `client_connected` message. */
export const LIVE_AUTH_TIMEOUT_MS = 5000;

const instanceIdMessage = (action: 'request_logs' | 'subscribe_logs' | 'unsubscribe_logs') =>
  z.strictObject({ action: z.literal(action), instance_id: z.string().min(1).max(128) });

/** What the console sends. The first message must be `client_connected` with the session token. */
export const clientMessageSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('client_connected'), timestamp: z.string().max(64), token: z.string().max(4096) }),
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

/** What the server sends, by `type`. */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome'), data: z.object({ user: userSchema, server_time: z.string() }) }),
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
  z.object({ type: z.literal('instance_status_update'), data: z.array(instanceSchema) }),
  z.object({ type: z.literal('recordings_update'), data: z.array(recordingSchema) }),
  z.object({ type: z.literal('instance_logs'), instance_id: z.string(), logs: z.array(z.string()) }),
  z.object({ type: z.literal('launch_complete'), data: launchOutcomeSchema }),
  z.object({ type: z.literal('launch_error'), data: launchOutcomeSchema }),
  z.object({ type: z.literal('system_status_update'), data: z.object({ status: systemStatusSchema }) }),
  z.object({ type: z.literal('system_health'), data: z.object({ overall_health: systemStatusSchema }) }),
  /** Every open alarm, sent once after initial_data: a console that connects late sees them all. */
  z.object({ type: z.literal('alarms'), data: z.object({ alarms: z.array(alarmSchema) }) }),
  /** An alarm raised, acknowledged or resolved. */
  z.object({ type: z.literal('alarm'), data: alarmSchema }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
