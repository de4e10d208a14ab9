import { z } from 'zod';
import { envelope, instantSchema } from './common';
import { systemStatusSchema } from './live';

/** How often the console polls the monitoring calls, and the server re-checks health (docs/reference.md section 9). */
export const MONITORING_POLL_MS = 30_000;

export const componentStatusSchema = z.enum(['healthy', 'unhealthy']);

export const componentHealthSchema = z.object({
  status: componentStatusSchema,
  /** Why it is unhealthy, or what was checked; never a secret. */
  detail: z.string().nullable(),
  /** How long the check took. */
  latency_ms: z.number().nonnegative(),
});
export type ComponentHealth = z.infer<typeof componentHealthSchema>;

/**
 * GET /api/monitoring/system. `overall_status` is `operational` only when every component is healthy,
 * `down` when the database is unhealthy, else `degraded`; `failing` names the unhealthy components.
 * `aws` is the capture provider, whichever driver runs (local recorders or EC2).
 */
export const systemHealthSchema = z.object({
  overall_status: systemStatusSchema,
  components: z
    .object({ aws: componentHealthSchema, prayer_times: componentHealthSchema, database: componentHealthSchema })
    .catchall(componentHealthSchema),
  failing: z.array(z.string()),
  checked_at: instantSchema,
});
export type SystemHealth = z.infer<typeof systemHealthSchema>;
export const systemHealthResponseSchema = envelope(systemHealthSchema);

/** One minute of the API's response-time history (for a chart); minutes without requests have null figures. */
export const responseTimeMinuteSchema = z.object({
  minute: instantSchema,
  p95_ms: z.number().nullable(),
  requests: z.number().int().nonnegative(),
});
export type ResponseTimeMinute = z.infer<typeof responseTimeMinuteSchema>;

/** GET /api/monitoring/metrics. Figures are null when nothing has been measured yet. */
export const systemMetricsSchema = z.object({
  api_response_times: z.object({
    average_ms: z.number().nullable(),
    p95_ms: z.number().nullable(),
    /** Requests the figures are computed from: those of the window, at most the latest 1000. */
    sample_count: z.number().int().nonnegative(),
    window_seconds: z.number().int().positive(),
    /** The last 60 minutes, oldest first. */
    history: z.array(responseTimeMinuteSchema),
  }),
  instance_metrics: z.object({
    /** Average seconds from launch to running over the latest launches. */
    average_launch_time_seconds: z.number().nullable(),
    launches_measured: z.number().int().nonnegative(),
    /** Instances per state, as the capture fleet counts them. */
    by_state: z.record(z.string(), z.number().int().nonnegative()),
  }),
  websocket_metrics: z.object({
    active_connections: z.number().int().nonnegative(),
    messages_sent_24h: z.number().int().nonnegative(),
  }),
  generated_at: instantSchema,
});
export type SystemMetrics = z.infer<typeof systemMetricsSchema>;
export const systemMetricsResponseSchema = envelope(systemMetricsSchema);

/** GET /api/monitoring/recordings. */
export const recordingStatsSchema = z.object({
  total_recordings: z.number().int().nonnegative(),
  by_status: z.record(z.string(), z.number().int().nonnegative()),
});
export type RecordingStats = z.infer<typeof recordingStatsSchema>;
export const recordingStatsResponseSchema = envelope(recordingStatsSchema);
