import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemHealth } from '../../../contract/monitoring';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Health names what is wrong instead of staying `operational`: activity entries the database refuses
 * are reported (they used to be dropped with only a log line), and the disks are checked
 * (full disks on a real tmpfs: tests/faults/health-disks.test.ts).
 */
describe('hostile conditions: health that tells the truth', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const health = async () => {
    await t.app.ctx.monitoring.refresh();
    const response = await t.request({ method: 'GET', url: '/api/monitoring/system', token: admin });
    return response.json<{ data: SystemHealth }>().data;
  };

  it('checks the recordings and database disks', async () => {
    const report = await health();
    expect(report.overall_status).toBe('operational');
    expect(report.components.recordings_disk).toMatchObject({
      status: 'healthy',
      detail: expect.stringMatching(/MiB free on the recordings disk$/),
    });
    if (t.app.ctx.db.dialect === 'sqlite') expect(report.components.database_disk.status).toBe('healthy');
  });

  it('degrades with the reason when activity entries cannot be written, and recovers', async () => {
    await sql`alter table activity rename to activity_moved`.execute(t.app.ctx.db.kysely);
    try {
      // A failed sign-in is recorded in the activity log: that write fails now.
      const refused = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: 'Wrong-pass-1' },
      });
      expect(refused.statusCode).toBe(401);
      const report = await health();
      expect(report.overall_status).toBe('degraded');
      expect(report.failing).toEqual(['activity_log']);
      expect(report.components.activity_log.detail).toMatch(/^Activity entries are being lost: .*activity/);
    } finally {
      await sql`alter table activity_moved rename to activity`.execute(t.app.ctx.db.kysely);
    }
    await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'Wrong-pass-1' },
    });
    expect((await health()).overall_status).toBe('operational');
  });
});
