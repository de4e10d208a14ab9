import type { ProviderRecording } from '../../../server/capture/provider';
import type { TestApp } from './test-app';

/** A running instance and its recording, as a launch leaves them: readings can then be applied to it. */
export async function seedRecording(
  t: TestApp,
  instanceId: string,
  mosqueId: string,
  jobId: string | null = null,
  scope = 'test',
): Promise<void> {
  const now = t.clock.now().toISOString();
  await t.app.ctx.db.kysely
    .insertInto('instances')
    .values({
      id: instanceId,
      provider: 'local',
      scope,
      provider_instance_id: instanceId,
      name: `capture-${instanceId}`,
      state: 'running',
      instance_type: 'local',
      mosque_id: mosqueId,
      url: 'https://streams.example/live.m3u8',
      method: 'api',
      duration: 600,
      width: 320,
      height: 240,
      image_id: null,
      launch_time: now,
      running_at: now,
      ended_at: null,
      state_reason: null,
      job_id: jobId,
      updated_at: now,
    })
    .execute();
  await t.app.ctx.recordings.create({
    id: `rec-${instanceId}`,
    instanceId,
    mosqueId,
    url: 'https://streams.example/live.m3u8',
    filePath: null,
  });
}

/** A reading of a recording in progress, 600 s long; `fields` say what differs. */
export const recordingReading = (fields: Partial<ProviderRecording>): ProviderRecording => ({
  status: 'recording',
  bytes: 1000,
  mediaSeconds: 10,
  filePath: null,
  reason: null,
  expectedSeconds: 600,
  coveredSeconds: 10,
  gaps: [],
  reconnects: 0,
  relaunches: 0,
  ...fields,
});
