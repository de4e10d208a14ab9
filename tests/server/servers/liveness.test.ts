import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEAD_AFTER_MS, HEARTBEAT_MS, ServerRegistry } from '../../../server/modules/servers';
import { MISSED_BEATS_TO_DEAD as MISSED_BEATS } from '../../../server/modules/servers/registry';
import { openHeartbeatConnection } from '../../../server/modules/servers/heartbeat-connection';
import { ServersRepository } from '../../../server/modules/servers/repository';
import { TakeoverTask } from '../../../server/modules/servers/takeover';
import { ManualClock } from '../../../testkit/manual-clock';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Liveness that load cannot fake, on PostgreSQL: a server's heartbeat renews its lease on a timer and a
 * connection of its own, so a saturated pool or takeover work that runs long never makes a running
 * server look dead; a server silent for three beats is taken over once (its lease re-checked as it is
 * marked), and a server that was only stalled finds its lease taken at its next beat and says so.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('server liveness on PostgreSQL', () => {
  let t: TestApp;
  let repository: ServersRepository;
  const connections: { close(): Promise<void> }[] = [];

  /** A server's own heartbeat connection, as the servers module opens it. */
  const heartbeatConnection = () => {
    const connection = openHeartbeatConnection(t.config.databaseUrl ?? '');
    connections.push(connection);
    return connection.repository;
  };
  const server = (
    name: string,
    clock: ManualClock = t.clock,
    leaseLost?: (taken: { by: string; at: string }) => void,
  ) =>
    new ServerRegistry(
      `host-a/${name}/0001`,
      repository,
      clock,
      {
        host: 'host-a',
        internalAddress: `http://127.0.0.1:80${name}`,
        version: '1.0.0',
        scope: `local:host-a:/data/${name}`,
      },
      t.app.log,
      heartbeatConnection(),
      leaseLost,
    );
  /** Moves the clock one beat at a time, letting each server's beat land (as their timers would). */
  const beatsPass = async (count: number, ...servers: ServerRegistry[]) => {
    for (let beat = 0; beat < count; beat++) {
      t.clock.advance(HEARTBEAT_MS);
      await Promise.all(servers.map((one) => one.beat()));
    }
  };

  beforeEach(async () => {
    t = await createTestApp();
    repository = new ServersRepository(t.app.ctx.db.kysely);
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
    await t.close();
  });

  it('a server whose shared pool is held by other work for longer than its lease keeps its lease', async () => {
    const busy = server('01');
    const other = server('02');
    await busy.start();
    await other.start();
    // Every pooled connection of the busy server is taken (launches waiting on a slow provider, say).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken = 0;
    const holders = Array.from({ length: 10 }, () =>
      t.app.ctx.db.kysely.connection().execute(async () => {
        taken++;
        await held;
      }),
    );
    await expect.poll(() => taken).toBe(10);

    await beatsPass(2 * MISSED_BEATS, busy, other);

    // The other server, on its own connection, finds the busy one holding its lease: nothing is taken.
    const otherView = new ServersRepository(t.app.ctx.db.kysely);
    release();
    await Promise.all(holders);
    expect((await other.live()).map((row) => row.id).sort()).toEqual([busy.id, other.id].sort());
    expect(await other.isDead(busy.id)).toBe(false);
    expect((await otherView.find(busy.id))?.taken_over_by).toBeNull();
    expect(Date.parse((await otherView.find(busy.id))?.last_seen ?? '')).toBe(t.clock.now().getTime());
    await busy.stop();
    await other.stop();
  });

  it('takeover work that runs longer than a lease never holds up the beat', async () => {
    const busy = server('01');
    const other = server('02');
    await busy.start();
    await other.start();
    let release = () => {};
    const slowPass = new Promise<void>((resolve) => (release = resolve));
    let passes = 0;
    const takeover = new TakeoverTask(
      [
        {
          name: 'slow',
          pass: async () => {
            passes++;
            await slowPass;
          },
        },
      ],
      t.clock,
      t.app.log,
    );
    takeover.start();

    await beatsPass(2 * MISSED_BEATS, busy, other);

    expect(passes, 'one pass at a time: the next waits for the slow one').toBe(1);
    expect(await other.isDead(busy.id)).toBe(false);
    expect((await other.live()).map((row) => row.id)).toContain(busy.id);
    release();
    await takeover.stop();
    await busy.stop();
    await other.stop();
  });

  it('a server silent for three beats is taken over once, and a stalled one finds out and stops its claims', async () => {
    // The stalled server's own clock stands still while it is stalled (its timers do not fire).
    const stalledClock = new ManualClock(t.clock.now());
    const lastBeat = t.clock.now().toISOString();
    const lost: { by: string; at: string }[] = [];
    const stalled = server('01', stalledClock, (taken) => lost.push(taken));
    const first = server('02');
    const second = server('03');
    await stalled.start();
    await first.start();
    await second.start();

    await beatsPass(MISSED_BEATS, first, second);
    expect(await first.isDead(stalled.id), 'its third beat may still land: still within its lease').toBe(false);
    expect((await first.live()).map((row) => row.id)).toContain(stalled.id);

    t.clock.advance(1);
    // Both look at once: each finds it dead, one of them took it.
    const [byFirst, bySecond] = await Promise.all([first.isDead(stalled.id), second.isDead(stalled.id)]);
    expect([byFirst, bySecond]).toEqual([true, true]);
    const row = await repository.find(stalled.id);
    expect([first.id, second.id]).toContain(row?.taken_over_by);
    expect(row?.taken_over_at).toBe(t.clock.now().toISOString());
    expect((await first.live()).map((one) => one.id)).not.toContain(stalled.id);
    expect(await first.isDead(stalled.id), 'asking again changes nothing').toBe(true);
    expect((await repository.find(stalled.id))?.taken_over_by).toBe(row?.taken_over_by);

    // The stalled server runs again: its next beat is refused, it says who took it and beats no more.
    stalledClock.set(t.clock.now());
    await stalled.beat();
    expect(lost).toEqual([{ by: row?.taken_over_by, at: row?.taken_over_at }]);
    expect(stalled.leaseTaken()).toEqual(lost[0]);
    expect((await repository.find(stalled.id))?.last_seen, 'its refused beat wrote nothing').toBe(lastBeat);
    stalledClock.advance(HEARTBEAT_MS);
    await stalled.beat();
    expect(lost, 'said once').toHaveLength(1);
    // A stop after that does not pass it off as a clean stop (which would leave its recordings waiting for it).
    await stalled.stop();
    expect((await repository.find(stalled.id))?.stopped_at).toBeNull();
    await first.stop();
    await second.stop();
  });

  it('a beat that lands before the takeover keeps the lease', async () => {
    const stalledClock = new ManualClock(t.clock.now());
    const late = server('01', stalledClock);
    const other = server('02');
    await late.start();
    await other.start();
    await beatsPass(MISSED_BEATS, other);
    t.clock.advance(1);
    // Its beat lands, late, just before the other looks.
    stalledClock.set(t.clock.now());
    await late.beat();
    expect(await repository.takeOverExpired(other.id, t.clock.now().toISOString(), deadSince())).toEqual([]);
    expect(await other.isDead(late.id)).toBe(false);
    expect((await repository.find(late.id))?.taken_over_by).toBeNull();
    expect(
      (await repository.takeOverScope('local:host-a:/data/01', other.id, t.clock.now().toISOString(), deadSince()))
        .owned,
    ).toBe(true);
    await late.stop();
    await other.stop();
  });

  const deadSince = () => new Date(t.clock.now().getTime() - DEAD_AFTER_MS).toISOString();
});
