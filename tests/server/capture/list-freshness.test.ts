import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { instancesListResponseSchema, type Instance } from '../../../contract/instances';
import { MemoryCaptureProvider } from '../../../testkit/memory-capture-provider';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { addMosques } from '../helpers/mosques';

/**
 * GET /api/instances/ shares one list (and one serialised body) between readers until the fleet
 * changes. These pin down that sharing never shows an outdated fleet: a change made through this
 * server shows at once, one made by another writer of the same database within a second, and
 * runtimes follow the clock.
 */
describe('the instance list while it is shared between readers', () => {
  let t: TestApp;
  let token: string;
  const driver = new MemoryCaptureProvider();

  const list = async (): Promise<Instance[]> => {
    const response = await t.request({ method: 'GET', url: '/api/instances/', token });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return instancesListResponseSchema.parse(response.json()).data;
  };
  const stateOf = async (id: string) => (await list()).find((i) => i.id === id)?.state;
  /** Launches one capture of `mosqueId` through the API; its instance's id. */
  const launch = async (path: string, mosqueId: string): Promise<string> => {
    const response = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: {
        configs: [{ url: `https://streams.example.org/${path}/index.m3u8`, duration: 600, mosque_id: mosqueId }],
        max_workers: 1,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { instances: Instance[] } }>().data.instances[0].id;
  };

  beforeAll(async () => {
    // The shared list is bounded by wall time (performance.now), not the app's clock: only that is
    // faked, so the test moves it past the bound instead of sleeping through it.
    vi.useFakeTimers({ toFake: ['performance'] });
    t = await createTestApp({ build: { captureDriver: driver } });
    token = await t.login();
    await addMosques(t, token, 'freshmosq1', 'freshmosq2', 'freshmosq3');
    await t.app.ready();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t.close();
  });

  it('shows a launch and a terminate made through this server at once', async () => {
    expect(await list()).toEqual([]);
    const id = await launch('a', 'freshmosq1');
    expect(await stateOf(id)).toBe('pending');
    await t.app.ctx.instances.reconcile();
    expect(await stateOf(id)).toBe('running');
    const terminate = await t.request({
      method: 'POST',
      url: '/api/instances/terminate',
      token,
      payload: { instance_ids: [id] },
    });
    expect(terminate.statusCode, terminate.body).toBe(200);
    expect(await stateOf(id)).toBe('stopping');
  });

  it('shows a change made by another writer of the database within a second', async () => {
    const [first] = await list();
    await t.app.ctx.db.kysely
      .updateTable('instances')
      .set({ name: 'renamed elsewhere' })
      .where('id', '=', first.id)
      .execute();
    vi.advanceTimersByTime(900);
    expect((await list()).find((i) => i.id === first.id)?.name).not.toBe('renamed elsewhere');
    vi.advanceTimersByTime(200);
    expect((await list()).find((i) => i.id === first.id)?.name).toBe('renamed elsewhere');
  });

  it('computes runtimes for the current time', async () => {
    const id = await launch('b', 'freshmosq2');
    const before = (await list()).find((i) => i.id === id)?.runtime_hours ?? Number.NaN;
    t.clock.advance(90 * 60_000);
    expect((await list()).find((i) => i.id === id)?.runtime_hours).toBeCloseTo(before + 1.5, 4);
  });

  it('a reconcile asked while a pass is in flight sees what was done before it was asked', async () => {
    // A pass (the server's own, every few seconds) reads the driver, then is held up.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const read = driver.list.bind(driver);
    const listing = vi.spyOn(driver, 'list').mockImplementationOnce(async () => {
      const seen = await read();
      await held;
      return seen;
    });
    const inFlight = t.app.ctx.instances.reconcile();
    await vi.waitUntil(() => listing.mock.calls.length > 0);
    const id = await launch('c', 'freshmosq3');
    const asked = t.app.ctx.instances.reconcile();
    release();
    await Promise.all([inFlight, asked]);
    // Sharing the held pass, which read the driver before the launch, would leave it pending.
    expect(await stateOf(id)).toBe('running');
  });
});
