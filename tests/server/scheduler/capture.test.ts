import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsResponseSchema } from '../../../contract/scheduler';
import { startHlsSource, type HlsSource } from '../../../testkit/capture';
import { waitFor } from '../../../testkit/wait';
import { messagesOf, SchedulerEnv } from './helpers';
import { scaled } from '../../../testkit/time-scale';

describe('a due job on the local capture driver', () => {
  let broadcast: HlsSource;
  beforeAll(async () => {
    broadcast = await startHlsSource();
  }, scaled(30_000));
  afterAll(() => broadcast?.close());

  it(
    'launches a real recorder that captures the stream, once, through the capture fleet',
    async () => {
      const env = await SchedulerEnv.create({
        start: '2026-11-06T11:00:00Z',
        mosques: [
          { id: 'local00001', name: 'Local Broadcast', url: broadcast.url, timezone: 'UTC', fridayPrayer: '12:30' },
        ],
      });
      let instanceId: string | undefined;
      const s = await env.build({ realLauncher: true });
      try {
        const token = await s.login();
        await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} });
        env.clock.set('2026-11-06T12:10:00Z');
        await s.runDue();

        const jobs = jobsResponseSchema.parse(
          (await s.request({ method: 'GET', url: '/api/scheduler/jobs', token: await s.login() })).json(),
        ).data.jobs;
        const job = jobs.find((j) => j.kind === 'recording');
        expect(job, JSON.stringify(job)).toMatchObject({ status: 'launched', attempts: 1, last_error: null });
        instanceId = job?.instance_id ?? undefined;
        expect(instanceId).toMatch(/^cap-/);
        // The fleet announced the launch; the scheduler did not announce it a second time.
        expect(messagesOf(s.published, 'launch_complete').filter((m) => m.data.job_id === job?.id)).toHaveLength(1);

        const id = instanceId ?? '';
        const instance = await waitFor(
          async () => {
            const found = (await s.app.ctx.instances.list()).find((i) => i.id === id);
            return found?.state === 'running' && found;
          },
          'the recorder to run',
          40_000,
        );
        expect(instance).toMatchObject({ mosque_id: 'local00001', url: broadcast.url, duration: 7200 });
        const recording = await waitFor(
          async () => {
            const found = await s.app.ctx.recordings.forInstance(id);
            return found && found.bytes > 0 ? found : undefined;
          },
          'media in the recording',
          40_000,
        );
        expect(recording.status).toBe('recording');

        // Launching the same job again (a retry after a crash) starts nothing new.
        const again = await s.app.ctx.capture.launch(
          { url: broadcast.url, duration: 7200, width: 1280, height: 720, mosque_id: 'local00001', method: 'api' },
          { jobId: job?.id, idempotencyKey: job?.id },
        );
        expect(again).toMatchObject({ launchId: id, existing: true });
        expect((await s.app.ctx.instances.list()).filter((i) => i.mosque_id === 'local00001')).toHaveLength(1);
      } finally {
        if (instanceId) {
          const id = instanceId;
          await s.app.ctx.capture.terminate(id).catch(() => undefined);
          await waitFor(
            async () => (await s.app.ctx.instances.list()).find((i) => i.id === id)?.state === 'terminated',
            'the recorder to stop',
            45_000,
          ).catch(() => undefined);
        }
        await env.dispose();
      }
    },
    scaled(120_000),
  );
});
