import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerRegistry } from '../../../server/modules/servers';
import { ServersRepository } from '../../../server/modules/servers/repository';
import { StrandedScopes } from '../../../server/modules/servers/stranded';
import { seedRecording } from '../helpers/recordings';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * A server that dies on a host where no other server runs leaves recorders nobody follows: one
 * critical alarm for that server (not one per recording), raised once however many servers check,
 * resolved when a server of that host is back.
 */
describe('recorders stranded on a host without a live server', () => {
  let t: TestApp;
  let repository: ServersRepository;
  const GONE_SCOPE = 'local:host-b:/data/b';
  const registry = (host: string, scope: string, port: number) =>
    new ServerRegistry(`${host}/${port}/0001`, repository, t.clock, { host, internalAddress: `http://10.0.0.${port % 250}:${port}`, version: '1.0.0', scope }, t.app.log);
  const stranded = (here: ServerRegistry) =>
    new StrandedScopes({ registry: here, repository, liveCountsByScope: () => t.app.ctx.instances.liveCountsByScope(), alarms: t.app.ctx.alarms });
  const openAlarms = async () => (await t.app.ctx.alarms.list('open', 50)).filter((alarm) => alarm.kind === 'server_gone');

  beforeEach(async () => {
    t = await createTestApp();
    repository = new ServersRepository(t.app.ctx.db.kysely);
  });
  afterEach(() => t.close());

  it('raises one alarm per dead server whose host has no live server, and resolves it when one is back', async () => {
    const gone = registry('host-b', GONE_SCOPE, 8002);
    await gone.start();
    await seedRecording(t, 'cap-stranded0001', 'mosque0001', null, GONE_SCOPE);
    await seedRecording(t, 'cap-stranded0002', 'mosque0002', null, GONE_SCOPE);
    // Followed by every server: a cloud scope is never stranded.
    await seedRecording(t, 'cap-cloud0000001', 'mosque0003', null, 'aws:eu-west-1');
    const a = registry('host-a', 'local:host-a:/data/a', 8001);
    const c = registry('host-c', 'local:host-c:/data/c', 8003);
    await a.start();
    await c.start();

    await stranded(a).pass();
    expect(await openAlarms(), 'its server is alive').toEqual([]);

    await gone.stop();
    await stranded(a).pass();
    await stranded(c).pass();
    await stranded(a).pass();
    const [alarm, ...more] = await openAlarms();
    expect(more, 'one alarm, however many servers look').toEqual([]);
    expect(alarm).toMatchObject({ severity: 'critical', instance_id: null });
    expect(alarm.message).toBe(
      `Server http://10.0.0.2:8002 on host-b stopped answering at ${(await repository.find(gone.id))?.last_seen}: 2 recordings of it run unwatched and are not judged until a server on host-b starts again with that data folder`,
    );

    // Another server on that host (a data folder of its own) can adopt them: nothing is stranded any more.
    const neighbour = registry('host-b', 'local:host-b:/data/other', 8004);
    await neighbour.start();
    await stranded(c).pass();
    expect(await openAlarms()).toEqual([]);
    expect((await t.app.ctx.alarms.list('all', 50)).find((row) => row.id === alarm.id)?.resolved_at).not.toBeNull();
    for (const server of [a, c, neighbour]) await server.stop();
  });

  it('says nothing of a dead server whose recorders have all ended', async () => {
    const gone = registry('host-b', GONE_SCOPE, 8002);
    await gone.start();
    await gone.stop();
    const a = registry('host-a', 'local:host-a:/data/a', 8001);
    await a.start();
    await stranded(a).pass();
    expect(await openAlarms()).toEqual([]);
    await a.stop();
  });
});
