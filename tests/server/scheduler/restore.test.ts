import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../contract/activity';
import { restoreResponseSchema } from '../../../contract/scheduler';
import { scheduledFriday, type SchedulerEnv, type SchedulerApp } from './helpers';

const NYC = 'friday-nyc0000001-2026-11-06';
const LON = 'friday-lon0000001-2026-11-06';

describe('restoring a cancelled job', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;

  beforeEach(async () => {
    ({ env, s, token } = await scheduledFriday());
  });
  afterEach(() => env.dispose());

  const post = (url: string) => s.request({ method: 'POST', url, token });

  it('schedules it again at its start, and logs who did it', async () => {
    expect((await post(`/api/scheduler/cancel/${NYC}`)).statusCode).toBe(200);
    const response = await post(`/api/scheduler/jobs/${NYC}/restore`);
    expect(response.statusCode).toBe(200);
    const body = restoreResponseSchema.parse(response.json());
    expect(body.message).toBe(`Job ${NYC} restored`);
    expect(body.data).toMatchObject({
      status: 'scheduled',
      next_run_time: '2026-11-06T17:10:00.000Z',
      outcome_reason: null,
    });
    const entries = (await s.request({ method: 'GET', url: '/api/activity?limit=50', token })).json<{
      data: { entries: ActivityEntry[] };
    }>().data.entries;
    expect(entries.find((e) => e.action === 'schedule.restore')).toMatchObject({
      actor: { username: 'admin' },
      target: { id: NYC },
    });

    env.clock.set('2026-11-06T17:10:00.000Z');
    token = await s.login();
    await s.runDue();
    expect(s.launcher.launches.map((l) => l.jobId)).toContain(NYC);
  });

  it('launches at once (late) when restored after its start, and refuses once the window has ended', async () => {
    await post(`/api/scheduler/cancel/${NYC}`);
    await post(`/api/scheduler/cancel/${LON}`);
    env.clock.set('2026-11-06T18:00:00.000Z');
    token = await s.login();
    const restored = restoreResponseSchema.parse((await post(`/api/scheduler/jobs/${NYC}/restore`)).json()).data;
    expect(restored.next_run_time).toBe('2026-11-06T18:00:00.000Z');
    await s.runDue();
    expect(s.launcher.launches.find((l) => l.jobId === NYC)).toMatchObject({ duration: 4200 });

    const late = await post(`/api/scheduler/jobs/${LON}/restore`);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      success: false,
      detail: `The recording window of job ${LON} ended at 2026-11-06T14:55:00.000Z; it can no longer be restored`,
    });
  });

  it('answers 409 for a job that is not cancelled, 404 for an unknown one, 401 without a session', async () => {
    expect((await post(`/api/scheduler/jobs/${NYC}/restore`)).statusCode).toBe(409);
    expect((await post('/api/scheduler/jobs/friday-nope-2026-11-06/restore')).statusCode).toBe(404);
    expect((await s.request({ method: 'POST', url: `/api/scheduler/jobs/${NYC}/restore` })).statusCode).toBe(401);
  });
});
