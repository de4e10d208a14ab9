import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceCostResponseSchema } from '../../../contract/instance-cost';
import { instancesListResponseSchema } from '../../../contract/instances';
import { ManualClock } from '../../../testkit/manual-clock';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * GET /api/instances/cost on a seeded Friday (2026-11-27, read at 14:00 UTC) and the Friday before:
 * a plain recording, a relaunched one (three machines), two recordings sharing one machine, a type
 * without a list price, a local recorder (not EC2: not counted).
 */

const FRIDAY = '2026-11-27';
const at = (time: string, day = FRIDAY) => `${day}T${time}:00.000Z`;
/** gp3 for an 8 GB root volume, per hour. */
const VOLUME_PER_HOUR = (8 * 0.08) / 730;

interface Seed {
  id: string;
  provider?: 'aws' | 'local';
  providerId: string;
  type: string;
  launched: string;
  ended: string | null;
  relaunchedAt?: string[];
}

const SEEDS: Seed[] = [
  { id: 'plain', providerId: 'i-plain', type: 't3.small', launched: at('10:55'), ended: at('12:55') },
  {
    id: 'relaunched',
    providerId: 'i-third',
    type: 't3.medium',
    launched: at('11:00'),
    ended: at('13:00'),
    relaunchedAt: [at('11:30'), at('12:00')],
  },
  // Two recordings on one machine (RECORDINGS_PER_INSTANCE): 12:00 to now (14:00), one machine.
  { id: 'shared-a', providerId: 'i-shared', type: 't3.small', launched: at('12:00'), ended: null },
  { id: 'shared-b', providerId: 'i-shared', type: 't3.small', launched: at('12:05'), ended: at('13:30') },
  { id: 'unpriced', providerId: 'i-odd', type: 'x9.odd', launched: at('11:00'), ended: at('12:00') },
  { id: 'local', provider: 'local', providerId: 'cap-local', type: 'local', launched: at('11:00'), ended: at('12:00') },
  {
    id: 'last-week',
    providerId: 'i-last',
    type: 't3.small',
    launched: at('11:00', '2026-11-20'),
    ended: at('12:00', '2026-11-20'),
  },
];

describe('GET /api/instances/cost: machines, instance-hours and an estimate per Friday and month', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({
      clock: new ManualClock(at('14:00')),
      env: { AWS_HOURLY_PRICES: 'x9.odd=1.5' },
      build: { healthCheckIntervalMs: 0 },
    });
    token = await t.login();
    const db = t.app.ctx.db.kysely;
    for (const seed of SEEDS) {
      const id = `cap-${seed.id}`;
      await db
        .insertInto('instances')
        .values({
          id,
          provider: seed.provider ?? 'aws',
          provider_instance_id: seed.providerId,
          name: id,
          state: seed.ended ? 'terminated' : 'running',
          instance_type: seed.type,
          mosque_id: null,
          url: 'https://streams.example.com/live.m3u8',
          method: 'api',
          duration: 7200,
          width: 1280,
          height: 720,
          image_id: null,
          launch_time: seed.launched,
          running_at: seed.launched,
          ended_at: seed.ended,
          state_reason: null,
          job_id: null,
          updated_at: seed.launched,
          window_start: seed.launched,
          window_end: seed.ended ?? at('16:00'),
        })
        .execute();
      const runs = (seed.relaunchedAt ?? []).map((relaunchedAt) => ({
        from: seed.launched,
        until: relaunchedAt,
        coveredSeconds: 0,
        gaps: [],
        reconnects: 0,
        reason: 'died',
        relaunchedAt,
      }));
      await db
        .insertInto('recordings')
        .values({
          id: `rec-${seed.id}`,
          instance_id: id,
          mosque_id: null,
          url: 'https://streams.example.com/live.m3u8',
          status: seed.ended ? 'partial' : 'recording',
          started_at: seed.launched,
          ended_at: seed.ended,
          bytes: 0,
          duration_seconds: null,
          file_path: null,
          reason: null,
          expected_seconds: null,
          covered_seconds: null,
          runs: JSON.stringify(runs),
          store_joined_at: null,
          provisional_until: null,
          updated_at: seed.launched,
        })
        .execute();
    }
  });
  afterAll(() => t.close());

  it('counts every machine of a relaunched recording and a shared machine once, and prices the hours', async () => {
    const response = await t.request({ method: 'GET', url: '/api/instances/cost', token });
    expect(response.statusCode, response.body).toBe(200);
    const cost = instanceCostResponseSchema.parse(response.json()).data;
    const [coming, last] = cost.fridays;
    // plain 2 h + relaunched 3 machines for 2 h + shared 2 h + odd 1 h.
    expect(coming).toMatchObject({ period: FRIDAY, recordings: 5, instances: 6, instance_hours: 7 });
    const expected = 2 * 0.0208 + 2 * 0.0416 + 2 * 0.0208 + 1 * 1.5 + 7 * VOLUME_PER_HOUR; // every type priced, x9.odd by the operator
    expect(coming.estimate_usd).toBeCloseTo(expected, 3);
    expect(coming.unpriced_types).toEqual([]);
    expect(last).toMatchObject({ period: '2026-11-20', recordings: 1, instances: 1, instance_hours: 1 });
    expect(last.estimate_usd).toBeCloseTo(0.0208 + VOLUME_PER_HOUR, 4);
    expect(cost.month).toMatchObject({ period: '2026-11', recordings: 6, instances: 7, instance_hours: 8 });
    expect(cost.hourly_prices).toMatchObject({ 't3.small': 0.0208, 'x9.odd': 1.5 });
    expect(cost.price_source).toMatch(/us-east-1, with AWS_HOURLY_PRICES/);
  });

  it("shows the relaunched recording's runtime as the sum of its machines in the instance list", async () => {
    const response = await t.request({ method: 'GET', url: '/api/instances/', token });
    const relaunched = instancesListResponseSchema
      .parse(response.json())
      .data.find((instance) => instance.id === 'cap-relaunched');
    expect(relaunched?.runtime_hours).toBe(2);
  });

  it('answers 401 without a session', async () => {
    expect((await t.request({ method: 'GET', url: '/api/instances/cost' })).statusCode).toBe(401);
  });
});
