import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../contract/activity';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { scaled } from '../../../testkit/time-scale';

/** Launches, terminations, emergency stops and image changes each leave one entry naming who and what. */
describe('activity log of the capture fleet', () => {
  let t: TestApp;
  let token: string;

  const latest = async (): Promise<ActivityEntry[]> =>
    (await t.request({ method: 'GET', url: '/api/activity?limit=200', token })).json<{
      data: { entries: ActivityEntry[] };
    }>().data.entries;

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    token = await t.login();
  });
  afterAll(async () => {
    await t.request({ method: 'POST', url: '/api/instances/terminate-all?force=true', token });
    await t.close();
  });

  it('records launch, terminate, image create and delete, and emergency stop', async () => {
    // Nothing listens on port 9: the recorder stays pending, which is all this test needs.
    const url = 'http://127.0.0.1:9/live.m3u8';
    const launch = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: { configs: [{ url, duration: 60 }], max_workers: 1 },
    });
    expect(launch.statusCode).toBe(200);
    const [instance] = launch.json<{ data: { instances: { id: string; name: string }[] } }>().data.instances;
    expect((await latest())[0]).toMatchObject({
      action: 'instance.launch',
      actor: { username: 'admin' },
      target: { type: 'instance', id: instance.id, label: instance.name },
    });

    const image = await t.request({
      method: 'POST',
      url: '/api/ami/create',
      token,
      payload: { instance_id: instance.id, name: 'recorder', description: 'test image', version: '1.0.0', tags: {} },
    });
    expect(image.statusCode).toBe(200);
    const amiId = image.json<{ data: { ami_id: string } }>().data.ami_id;
    expect((await latest())[0]).toMatchObject({ action: 'image.create', target: { type: 'image', id: amiId } });

    const terminate = await t.request({
      method: 'POST',
      url: '/api/instances/terminate',
      token,
      payload: { instance_ids: [instance.id] },
    });
    expect(terminate.statusCode).toBe(200);
    expect((await latest())[0]).toMatchObject({
      action: 'instance.terminate',
      actor: { username: 'admin' },
      target: { id: instance.id },
    });

    await expect
      .poll(async () => (await t.request({ method: 'DELETE', url: `/api/ami/${amiId}`, token })).statusCode, {
        timeout: scaled(15_000),
      })
      .toBe(200);
    expect((await latest())[0]).toMatchObject({ action: 'image.delete', target: { type: 'image', id: amiId } });

    const stop = await t.request({ method: 'POST', url: '/api/instances/terminate-all?force=true', token });
    expect(stop.statusCode).toBe(200);
    expect((await latest())[0]).toMatchObject({ action: 'instance.emergency_stop', actor: { username: 'admin' } });
  });
});
