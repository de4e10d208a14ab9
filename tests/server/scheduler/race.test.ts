import { afterEach, describe, expect, it } from 'vitest';
import { FixedTimePlanner, type PlannedMosque } from '../../../testkit/scheduler-doubles';
import type { FridayPlanner } from '../../../server/modules/scheduler/ports';
import { SchedulerEnv } from './helpers';

/** 60 mosques, their Friday prayers one minute apart in groups of 20, in three zones. */
const MOSQUES: PlannedMosque[] = Array.from({ length: 60 }, (_, i) => ({
  id: `race${String(i).padStart(6, '0')}`,
  name: `Race Mosque ${i}`,
  url: `https://streams.test/race-${i}.m3u8`,
  timezone: ['Europe/London', 'Europe/Paris', 'Asia/Karachi'][i % 3],
  fridayPrayer: ['13:00', '14:00', '17:00'][i % 3],
}));

/** Two servers on one database (PostgreSQL when TEST_DATABASE_URL is set, else one SQLite file). */
describe('two scheduler processes on one database', () => {
  let env: SchedulerEnv;
  afterEach(() => env.dispose());

  it('launch each due job exactly once, retries included', async () => {
    env = await SchedulerEnv.create({ start: '2026-11-02T09:00:00Z', mosques: MOSQUES });
    const a = await env.build();
    const b = await env.build();
    const token = await a.login();
    // Both accept scheduling calls at the same moment: still one job per mosque.
    const [ra, rb] = await Promise.all([
      a.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} }),
      b.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} }),
    ]);
    expect(ra.json().data.created + rb.json().data.created).toBe(60);
    const rows = await a.app.ctx.db.kysely
      .selectFrom('scheduler_jobs')
      .select('id')
      .where('kind', '=', 'recording')
      .execute();
    expect(rows).toHaveLength(60);

    a.launcher.failNext(3, 'transient');
    b.launcher.failNext(2, 'transient');
    env.clock.set('2026-11-06T12:40:00Z'); // every job's start has come (and none has ended)
    for (let round = 0; round < 12; round++) {
      await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
      env.clock.advance(5_000);
    }

    const launched = [...a.launcher.launches, ...b.launcher.launches].map((l) => l.jobId);
    expect(launched).toHaveLength(60);
    expect(new Set(launched).size).toBe(60);
    expect(a.launcher.launches.length).toBeGreaterThan(0);
    expect(b.launcher.launches.length).toBeGreaterThan(0);
    const statuses = await a.app.ctx.db.kysely
      .selectFrom('scheduler_jobs')
      .select(['status', 'instance_id'])
      .where('kind', '=', 'recording')
      .execute();
    expect(statuses.every((r) => r.status === 'launched' && r.instance_id)).toBe(true);
    expect(a.launcher.calls + b.launcher.calls).toBe(65);
  });

  it('run the recurring job once per due time', async () => {
    env = await SchedulerEnv.create({ start: '2026-11-01T23:59:00Z', mosques: MOSQUES.slice(0, 5) });
    let planned = 0;
    const inner = new FixedTimePlanner(MOSQUES.slice(0, 5));
    const counting: FridayPlanner = {
      prayerTimes: (now) => inner.prayerTimes(now),
      activeMosques: () => inner.activeMosques(),
      planFriday: (now, filter) => {
        planned++;
        return inner.planFriday(now, filter);
      },
    };
    const a = await env.build({ planner: counting });
    const b = await env.build({ planner: counting });
    env.clock.set('2026-11-02T00:00:00Z');
    await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
    expect(planned).toBe(1);
    const jobs = await a.app.ctx.db.kysely
      .selectFrom('scheduler_jobs')
      .select('id')
      .where('kind', '=', 'recording')
      .execute();
    expect(jobs).toHaveLength(5);
  });
});
