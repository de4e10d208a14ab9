import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmsResponseSchema, type Alarm } from '../../../contract/alarms';
import type { ActivityEntry } from '../../../contract/activity';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { connectAs, listen } from '../live/live-client';

describe('alarms', () => {
  let t: TestApp;
  let admin: string;
  let operator: string;

  const list = async (status: 'open' | 'all' = 'open'): Promise<Alarm[]> => {
    const response = await t.request({ method: 'GET', url: `/api/alarms?status=${status}`, token: operator });
    expect(response.statusCode).toBe(200);
    return alarmsResponseSchema.parse(response.json()).data.alarms;
  };

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
    operator = (await t.createUser({ username: 'operator', role: 'user' })).token;
  });
  afterAll(() => t.close());

  it('needs a session and refuses bad input', async () => {
    expect((await t.request({ method: 'GET', url: '/api/alarms' })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/alarms/alm-1/acknowledge' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/alarms?status=closed', token: operator })).statusCode).toBe(
      400,
    );
    expect((await t.request({ method: 'POST', url: '/api/alarms/nope/acknowledge', token: operator })).statusCode).toBe(
      404,
    );
  });

  it('raises once per cause, with the severity of its kind, until the cause is resolved', async () => {
    const alarms = t.app.ctx.alarms;
    const first = await alarms.raise({
      kind: 'recorder_died',
      key: 'recorder_died:cap-1',
      message: 'The recorder stopped',
      instanceId: 'cap-1',
    });
    const again = await alarms.raise({
      kind: 'recorder_died',
      key: 'recorder_died:cap-1',
      message: 'The recorder stopped again',
    });
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({
      severity: 'warning',
      instance_id: 'cap-1',
      resolved_at: null,
      acknowledged_at: null,
    });
    expect((await list()).filter((a) => a.id === first.id)).toHaveLength(1);

    t.clock.advance(60_000);
    await alarms.resolve('recorder_died:cap-1');
    expect((await list()).some((a) => a.id === first.id)).toBe(false);
    const resolved = (await list('all')).find((a) => a.id === first.id);
    expect(resolved?.resolved_at).toBe(t.clock.now().toISOString());

    // The same cause coming back is a new alarm.
    const later = await alarms.raise({
      kind: 'recorder_died',
      key: 'recorder_died:cap-1',
      message: 'The recorder stopped',
    });
    expect(later.id).not.toBe(first.id);
  });

  it('resolves a family of causes except those still true', async () => {
    const alarms = t.app.ctx.alarms;
    await alarms.raise({ kind: 'unschedulable', key: 'unschedulable:a', message: 'a' });
    await alarms.raise({ kind: 'unschedulable', key: 'unschedulable:b', message: 'b' });
    await alarms.resolveAllExcept('unschedulable:', new Set(['unschedulable:b']));
    const open = (await list()).filter((a) => a.kind === 'unschedulable').map((a) => a.message);
    expect(open).toEqual(['b']);
  });

  it('is acknowledged by an operator, who is named, and logged', async () => {
    const alarm = await t.app.ctx.alarms.raise({
      kind: 'capture_failed',
      key: 'outcome:rec-9',
      message: 'No media: the stream never came',
      mosqueId: 'm1',
      mosqueName: 'Al Noor',
    });
    expect(alarm.severity).toBe('critical');
    const response = await t.request({ method: 'POST', url: `/api/alarms/${alarm.id}/acknowledge`, token: operator });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ data: Alarm }>().data).toMatchObject({
      id: alarm.id,
      acknowledged_by: 'operator',
      resolved_at: null,
    });
    const entries = (await t.request({ method: 'GET', url: '/api/activity?limit=20', token: admin })).json<{
      data: { entries: ActivityEntry[] };
    }>().data.entries;
    expect(entries.map((e) => e.summary)).toEqual(
      expect.arrayContaining([
        'operator acknowledged alarm: No media: the stream never came',
        'Alarm raised: No media: the stream never came',
      ]),
    );
    expect(await t.app.ctx.alarms.openCriticalCount()).toBeGreaterThanOrEqual(1);
  });

  it('says the mosque name of now, in its text too, after the mosque was renamed', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token: admin,
      payload: {
        name: 'Old Name Mosque',
        languages: ['ar'],
        latitude: 21.4225,
        longitude: 39.8262,
        timezone: 'Asia/Riyadh',
      },
    });
    const mosqueId = created.json<{ data: { mosque_id: string } }>().data.mosque_id;
    const alarm = await t.app.ctx.alarms.raise({
      kind: 'capture_failed',
      key: `outcome:rename-${mosqueId}`,
      message: 'Old Name Mosque: nothing was captured',
      mosqueId,
      mosqueName: 'Old Name Mosque',
    });
    const renamed = await t.request({
      method: 'PUT',
      url: `/api/config/mosques/${mosqueId}`,
      token: admin,
      payload: { name: 'New Name Mosque' },
    });
    expect(renamed.statusCode).toBe(200);

    const listed = (await list()).find((a) => a.id === alarm.id);
    expect(listed).toMatchObject({ mosque_name: 'New Name Mosque', message: 'New Name Mosque: nothing was captured' });
    const acknowledged = await t.request({
      method: 'POST',
      url: `/api/alarms/${alarm.id}/acknowledge`,
      token: operator,
    });
    expect(acknowledged.json<{ data: Alarm }>().data).toMatchObject({
      mosque_name: 'New Name Mosque',
      message: 'New Name Mosque: nothing was captured',
    });
  });

  it('reaches consoles live, and a console that connects late sees every open alarm', async () => {
    const url = await listen(t.app);
    const early = await connectAs(url, operator);
    const raised = await t.app.ctx.alarms.raise({
      kind: 'missed',
      key: 'missed:job-1',
      message: 'The recording was never launched',
    });
    // Another alarm may come first (a check of the system's health that a busy PostgreSQL slowed down, in
    // a check run): the raised one must come, each message within the client's quiet timeout.
    let live = await early.next('alarm');
    while (live.data.id !== raised.id) live = await early.next('alarm');
    expect(live.data).toMatchObject({ id: raised.id, kind: 'missed', message: 'The recording was never launched' });
    const late = await connectAs(url, operator);
    const snapshot = await late.next('alarms');
    expect(snapshot.data.alarms.map((a) => a.id)).toContain(raised.id);
    expect(snapshot.data.alarms.every((a) => a.resolved_at === null)).toBe(true);
    await early.close();
    await late.close();
  });
});
