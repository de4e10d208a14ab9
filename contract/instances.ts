import { z } from 'zod';
import { instantSchema } from './common';

export const instanceStateSchema = z.enum(['pending', 'running', 'stopping', 'stopped', 'terminated']);
export type InstanceState = z.infer<typeof instanceStateSchema>;

export const recordingStatusSchema = z.enum(['recording', 'completed', 'partial', 'failed']);
export type RecordingStatus = z.infer<typeof recordingStatusSchema>;

/** One recording instance as the console lists it (SPEC.md section 3, Instance). */
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
});
export type Recording = z.infer<typeof recordingSchema>;
