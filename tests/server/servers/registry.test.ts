import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEAD_AFTER_MS, HEARTBEAT_MS, ServerRegistry } from '../../../server/modules/servers';
import { ServersRepository } from '../../../server/modules/servers/repository';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * The servers table on the test database (SQLite, or PostgreSQL in `npm run test:pg`): heartbeats on
 * the injected clock, a server silent for three beats counted dead, a clean stop dead at once, and the lease
 * by which one live server adopts a dead scope.
 */
describe('servers table', () => {
  let t: TestApp;
  let repository: ServersRepository;
  const registry = (scope: string, address: string) =>
    new ServerRegistry(
      `host-a/${address.slice(-4)}/0001`,
      repository,
      t.clock,
      { host: 'host-a', internalAddress: address, version: '1.0.0', scope },
      t.app.log,
    );

  beforeEach(async () => {
    t = await createTestApp();
    repository = new ServersRepository(t.app.ctx.db.kysely);
  });
  afterEach(() => t.close());

  it('registers each server and counts one silent for three beats (15 s) as dead', async () => {
    const a = registry('local:host-a:/data/a', 'http://127.0.0.1:8001');
    const b = registry('local:host-a:/data/b', 'http://127.0.0.1:8002');
    await a.start();
    await b.start();
    expect((await a.live()).map((row) => row.id).sort()).toEqual([a.id, b.id].sort());
    expect(await repository.find(b.id)).toMatchObject({
      host: 'host-a',
      internal_address: 'http://127.0.0.1:8002',
      version: '1.0.0',
      scope: 'local:host-a:/data/b',
    });

    // A stops beating (as a SIGKILLed server would); B beats on the clock.
    await a.stop();
    await repository.beat(a.id, t.clock.now().toISOString());
    for (let waited = 0; waited <= DEAD_AFTER_MS; waited += HEARTBEAT_MS) {
      t.clock.advance(HEARTBEAT_MS);
      await b.beat();
    }
    expect((await b.live()).map((row) => row.id)).toEqual([b.id]);
    const silent = await repository.find(a.id);
    expect(silent && b.isAlive(silent)).toBe(false);
    expect(await b.isDead(a.id)).toBe(true);
    expect(await b.isDead(b.id)).toBe(false);
    expect(await b.isDead('never/1/registered'), 'a claimant that never registered is not known dead').toBe(false);
    expect(Date.parse((await repository.find(b.id))?.last_seen ?? '')).toBe(t.clock.now().getTime());
    await b.stop();
  });

  it('a clean stop is dead at once, so its recorders are handed over without waiting 15 s', async () => {
    const a = registry('local:host-a:/data/a', 'http://127.0.0.1:8001');
    const b = registry('local:host-a:/data/b', 'http://127.0.0.1:8002');
    await a.start();
    await b.start();
    await a.stop();
    expect((await b.live()).map((row) => row.id)).toEqual([b.id]);
    expect(await b.liveOfScope('local:host-a:/data/a')).toEqual([]);
    await b.stop();
  });

  it('a scope is adopted by one server at a time, until its lease runs out', async () => {
    const now = () => t.clock.now().toISOString();
    const later = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
    expect(await repository.leaseScope('local:host-a:/data/a', 'srv-b', now(), later(30_000))).toBe(true);
    expect(await repository.leaseScope('local:host-a:/data/a', 'srv-c', now(), later(30_000))).toBe(false);
    expect(
      await repository.leaseScope('local:host-a:/data/a', 'srv-b', now(), later(30_000)),
      'renewed by its holder',
    ).toBe(true);
    t.clock.advance(31_000);
    expect(
      await repository.leaseScope('local:host-a:/data/a', 'srv-c', now(), later(30_000)),
      'taken over once it ran out',
    ).toBe(true);
    await repository.releaseScope('local:host-a:/data/a', 'srv-c');
    expect(await repository.leaseScope('local:host-a:/data/a', 'srv-b', now(), later(30_000))).toBe(true);
  });
});
