import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  LaunchConfig,
  LaunchedInstance,
  LaunchOptions,
  ProviderInstance,
  ProviderRecording,
} from '../../../server/capture/provider';
import { ServerRegistry } from '../../../server/modules/servers';
import { ServersRepository } from '../../../server/modules/servers/repository';
import { StrandedScopes } from '../../../server/modules/servers/stranded';
import { parseRuns } from '../../../server/modules/recordings/runs';
import { fridayJobRow } from '../../../testkit/job-row';
import { MemoryCaptureProvider } from '../../../testkit/memory-capture-provider';
import { recordingReading, seedRecording } from '../helpers/recordings';
import { createPeerApp, createTestApp, type TestApp } from '../helpers/test-app';

/** The fleet's driver, noting what each launch was asked (the continuation's recorder). */
class NotingDriver extends MemoryCaptureProvider {
  readonly launches: LaunchOptions[] = [];
  override async launch(config: LaunchConfig, options: LaunchOptions = {}): Promise<LaunchedInstance> {
    this.launches.push(options);
    return super.launch(config, options);
  }
}

/** The driver of a server started again on the lost host: its recorder of that row was started again too. */
class RestartedLostDriver extends MemoryCaptureProvider {
  override readonly scope = 'memory:lost-host';
  constructor(private readonly launchId: string) {
    super();
  }
  override async list(): Promise<ProviderInstance[]> {
    const config = {
      url: 'https://streams.example/live.m3u8',
      duration: 660,
      width: 320,
      height: 240,
      mosque_id: null,
      method: 'api' as const,
    };
    return [
      {
        providerInstanceId: this.launchId,
        launchId: this.launchId,
        name: 'restarted',
        state: 'running',
        stateReason: null,
        instanceType: 'local',
        config,
        jobId: null,
        imageId: null,
        mediaFlowing: true,
        recording: null,
      },
    ];
  }
}

/**
 * A server that dies on a host where no other server runs: its machine is taken as lost with its
 * recorders. At a heartbeat, one live server takes each of its live rows (exactly one, however many
 * race), continues those whose window is open beyond the relaunch margin with a recorder of its own,
 * and judges the others from what is known; the time nobody recorded is one server_down gap naming the
 * server and its host. One alarm for the dead server says so, and resolves at the next beat. A server
 * stopped cleanly is not lost: its recordings wait for it.
 */
describe('recorders of a server lost with its host', () => {
  let t: TestApp;
  let driver: NotingDriver;
  let repository: ServersRepository;
  const GONE_SCOPE = 'local:host-b:/data/b';
  const GONE_ID = 'host-b/8002/0001';
  const registry = (host: string, scope: string, port: number) =>
    new ServerRegistry(
      `${host}/${port}/0001`,
      repository,
      t.clock,
      { host, internalAddress: `http://10.0.0.${port % 250}:${port}`, version: '1.0.0', scope },
      t.app.log,
    );
  const stranded = (here: ServerRegistry) =>
    new StrandedScopes({
      registry: here,
      repository,
      clock: t.clock,
      liveCountsByScope: () => t.app.ctx.instances.liveCountsByScope(),
      continueLost: (lost) => t.app.ctx.instances.continueLost(lost),
      alarms: t.app.ctx.alarms,
    });
  const openAlarms = async () =>
    (await t.app.ctx.alarms.list('open', 50)).filter((alarm) => alarm.kind === 'server_gone');
  const at = (hms: string) => `2026-11-23T${hms}.000Z`;

  /** A row of the dead server recording `window`, showing `covered` seconds at 09:00:00 (its last reading). */
  async function seedLive(
    id: string,
    window: [string, string],
    covered: number,
    state: 'running' | 'stopping' = 'running',
    job?: { id: string; mosqueId: string },
    reading: Partial<ProviderRecording> = {},
  ) {
    await seedRecording(t, id, job?.mosqueId ?? `mosque-${id.slice(-4)}`, job?.id ?? null, GONE_SCOPE);
    await t.app.ctx.db.kysely
      .updateTable('instances')
      .set({ window_start: at(window[0]), window_end: at(window[1]), state })
      .where('id', '=', id)
      .execute();
    const span = { start: Date.parse(at(window[0])), end: Date.parse(at(window[1])) };
    await t.app.ctx.recordings.applyReading(
      id,
      recordingReading({
        coveredSeconds: covered,
        mediaSeconds: covered,
        expectedSeconds: (span.end - span.start) / 1000,
        ...reading,
      }),
      null,
      span,
    );
  }

  beforeEach(async () => {
    driver = new NotingDriver();
    t = await createTestApp({ build: { captureDriver: driver } });
    repository = new ServersRepository(t.app.ctx.db.kysely);
  });
  afterEach(() => t.close());

  it('continues each open recording on exactly one live server and judges the rest, with one alarm', async () => {
    // The dead server: registered, last heard from at 09:00:00, never again (killed with its machine).
    await repository.register({
      id: GONE_ID,
      host: 'host-b',
      internal_address: 'http://10.0.0.2:8002',
      version: '1.0.0',
      scope: GONE_SCOPE,
      started_at: at('08:50:00'),
      last_seen: at('09:00:00'),
    });
    // The first is a Friday's recording: its job was launched by the dead server.
    const mosque = (
      await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token: await t.login(),
        payload: { name: 'Al Noor Mosque', languages: ['ar'] },
      })
    ).json<{ data: { mosque_id: string } }>().data;
    const job = { id: 'job-noor-continued', mosqueId: mosque.mosque_id };
    await t.app.ctx.db.kysely
      .insertInto('scheduler_jobs')
      .values(
        fridayJobRow(job.id, at('08:59:00'), {
          status: 'launched',
          next_run_time: null,
          mosque_id: job.mosqueId,
          mosque_name: 'Al Noor Mosque',
          recording_end: at('09:10:00'),
          duration: 660,
          instance_id: 'cap-stranded0001',
          launched_at: at('08:59:00'),
        }),
      )
      .execute();
    await seedLive('cap-stranded0001', ['08:59:00', '09:10:00'], 60, 'running', job);
    // Its window ends 30 s after the loss is seen: within the relaunch margin, so it is judged.
    await seedLive('cap-stranded0002', ['08:55:00', '09:00:50'], 300);
    // Being stopped by an operator when the server died: judged, never continued.
    await seedLive('cap-stranded0003', ['08:59:00', '09:10:00'], 60, 'stopping');
    // Followed by every server: a cloud scope is never stranded.
    await seedRecording(t, 'cap-cloud0000001', 'mosque0003', null, 'aws:eu-west-1');

    t.clock.set(at('09:00:10'));
    const a = registry('host-a', 'local:host-a:/data/a', 8001);
    const c = registry('host-c', 'local:host-c:/data/c', 8003);
    await a.start();
    await c.start();
    await stranded(a).pass();
    expect(driver.launches, 'its server is alive (heard from 10 s ago)').toEqual([]);

    t.clock.set(at('09:00:21'));
    // Two servers race for the same rows at the same beat.
    await Promise.all([stranded(a).pass(), stranded(c).pass()]);

    expect(driver.launches, 'one recorder for the open recording, however many servers looked').toHaveLength(1);
    expect(driver.launches[0]).toMatchObject({
      launchId: 'cap-stranded0001',
      continues: true,
      windowStart: at('08:59:00'),
      windowEnd: at('09:10:00'),
      idempotencyKey: 'job-noor-continued:continue:1',
      jobId: job.id,
    });
    const continued = await t.app.ctx.instances.resolve('cap-stranded0001');
    expect(continued).toMatchObject({ scope: driver.scope, state: 'pending', ended_at: null });
    expect(continued.state_reason).toContain(
      `Continued on this server: Server ${GONE_ID} (http://10.0.0.2:8002) on host-b was lost`,
    );

    // What it showed until the loss is kept as a run; the time since is one server_down gap naming the server.
    const recording = (await t.app.ctx.recordings.findRowByInstance('cap-stranded0001'))!;
    const [run, ...moreRuns] = parseRuns(recording.runs);
    expect(moreRuns).toEqual([]);
    expect(run).toMatchObject({
      from: at('08:59:00'),
      until: at('09:00:21'),
      coveredSeconds: 60,
      relaunchedAt: at('09:00:21'),
    });
    expect(JSON.parse(recording.gaps)).toEqual([
      expect.objectContaining({
        start: at('09:00:00'),
        end: at('09:00:21'),
        cause: 'server_down',
        reason: `Server ${GONE_ID} (http://10.0.0.2:8002) on host-b was lost (last seen ${at('09:00:00')})`,
      }),
    ]);

    // A server started again on the lost host, with that row's recorder started again there, leaves the
    // row to the server that continues it.
    const restarted = await createPeerApp(t, { captureDriver: new RestartedLostDriver('cap-stranded0001') });
    await restarted.app.ctx.instances.reconcile();
    await restarted.close();
    expect(await t.app.ctx.instances.resolve('cap-stranded0001')).toEqual(continued);

    // The continuing recorder reports the rest of the window: it had media from 09:00:24. The recording is
    // both runs joined: partial, with one gap from the loss to that first media, counted once.
    t.clock.set(at('09:10:00'));
    const window = { start: Date.parse(at('08:59:00')), end: Date.parse(at('09:10:00')) };
    await t.app.ctx.recordings.applyReading(
      'cap-stranded0001',
      recordingReading({
        status: 'captured',
        expectedSeconds: 660,
        coveredSeconds: 576,
        mediaSeconds: 576,
        gaps: [
          {
            start: at('08:59:00'),
            end: at('09:00:24'),
            cause: 'recorder_down',
            reason: 'Recorder was not started yet',
            content_lost_seconds: 84,
          },
        ],
      }),
      null,
      window,
    );
    const ended = (await t.app.ctx.recordingsLibrary.details(recording.id))!;
    expect(ended.status).toBe('partial');
    expect(ended.gaps).toEqual([
      expect.objectContaining({ start: at('09:00:00'), end: at('09:00:24'), cause: 'server_down' }),
    ]);
    expect(ended.covered_seconds).toBe(636);
    expect(ended.reason).not.toContain('relaunched');
    // Its Friday, settled once the window is over, tells the same.
    t.clock.set(at('09:12:00'));
    await t.app.ctx.scheduler.tick();
    const friday = (await t.app.ctx.scheduler.fridays('2026-11-23')).fridays.find((row) => row.job_id === job.id);
    expect(friday).toMatchObject({ status: ended.status, covered_seconds: ended.covered_seconds, gaps: ended.gaps });

    // The others are judged from what they showed: the rest of their window a server_down gap.
    for (const [id, covered, gapEnd] of [
      ['cap-stranded0002', 300, '09:00:50'],
      ['cap-stranded0003', 60, '09:10:00'],
    ] as const) {
      const row = await t.app.ctx.instances.resolve(id);
      expect(row.state, id).toBe('terminated');
      const judged = (await t.app.ctx.recordings.forInstance(id))!;
      expect(judged, id).toMatchObject({ status: 'partial', covered_seconds: covered });
      expect(judged.gaps, id).toEqual([
        expect.objectContaining({ start: at('09:00:00'), end: at(gapEnd), cause: 'server_down' }),
      ]);
      expect(judged.reason, id).toContain('on host-b was lost');
    }

    // One alarm for the dead server, saying what became of its recordings; none per recording for the loss.
    const [alarm, ...more] = await openAlarms();
    expect(more).toEqual([]);
    expect(alarm).toMatchObject({ severity: 'critical', instance_id: null });
    expect(alarm.message).toMatch(
      new RegExp(
        `^Server ${GONE_ID} \\(http://10\\.0\\.0\\.2:8002\\) on host-b was lost \\(last seen ${at('09:00:00').replace(/\./g, '\\.')}\\), and no server is left on host-b: 1 recording continued on server host-[ac]/800[13]/0001 from where the lost recorders stopped, what the stream no longer offered a gap; 2 recordings judged from what was known \\(window over\\)$`,
      ),
    );
    expect((await t.app.ctx.alarms.list('all', 50)).filter((row) => row.kind === 'recorder_died')).toEqual([]);
    // Nothing of it is live any more, but its host is still gone: open until a server runs there again
    // (past the grouping window, so it is sent; a server lost for 5 s was never told of before).
    t.clock.set(at('09:05:00'));
    await Promise.all([a.beat(), c.beat()]);
    await stranded(c).pass();
    expect(await openAlarms()).toEqual([alarm]);
    const back = registry('host-b', 'local:host-b:/data/b-restarted', 8012);
    await back.start();
    await stranded(a).pass();
    expect(await openAlarms()).toEqual([]);
    for (const server of [a, c, back]) await server.stop();
  });

  it("continues an HLS recording after the last segment its recorder kept: the hole from there is the new recorder's one server_down gap", async () => {
    await repository.register({
      id: GONE_ID,
      host: 'host-b',
      internal_address: 'http://10.0.0.2:8002',
      version: '1.0.0',
      scope: GONE_SCOPE,
      started_at: at('08:50:00'),
      last_seen: at('09:00:00'),
    });
    // Its recorder's last reading: 58 s covered, its last segment (sequence 41) ending at 08:59:58.
    await seedLive('cap-stranded0001', ['08:59:00', '09:10:00'], 58, 'running', undefined, {
      resumePoint: { sequence: 41, end: at('08:59:58') },
    });
    const a = registry('host-a', 'local:host-a:/data/a', 8001);
    await a.start();
    t.clock.set(at('09:00:21'));
    await stranded(a).pass();

    const lost = `Server ${GONE_ID} (http://10.0.0.2:8002) on host-b was lost (last seen ${at('09:00:00')})`;
    expect(driver.launches).toHaveLength(1);
    expect(driver.launches[0]).toMatchObject({
      launchId: 'cap-stranded0001',
      continues: true,
      continuing: { after: 41, since: at('08:59:58'), reason: lost },
    });
    // The lost run ends where its recorder stopped; the hole after it is left to the new recorder to measure.
    const recording = (await t.app.ctx.recordings.findRowByInstance('cap-stranded0001'))!;
    expect(parseRuns(recording.runs)).toEqual([
      expect.objectContaining({
        from: at('08:59:00'),
        until: at('08:59:58'),
        coveredSeconds: 58,
        relaunchedAt: at('08:59:58'),
      }),
    ]);

    // The new recorder went on from the oldest segment still listed, at 09:00:12: 14 s left the playlist,
    // and its ledger puts the hole before it down to the lost server.
    t.clock.set(at('09:10:00'));
    const window = { start: Date.parse(at('08:59:00')), end: Date.parse(at('09:10:00')) };
    await t.app.ctx.recordings.applyReading(
      'cap-stranded0001',
      recordingReading({
        status: 'captured',
        expectedSeconds: 660,
        coveredSeconds: 588,
        mediaSeconds: 588,
        gaps: [
          { start: at('08:59:00'), end: at('09:00:12'), cause: 'server_down', reason: lost, content_lost_seconds: 72 },
        ],
      }),
      null,
      window,
    );
    const ended = (await t.app.ctx.recordingsLibrary.details(recording.id))!;
    expect(ended).toMatchObject({ status: 'partial', covered_seconds: 646 });
    expect(ended.gaps).toEqual([
      {
        start: at('08:59:58'),
        end: at('09:00:12'),
        cause: 'server_down',
        reason: lost,
        content_lost_seconds: 14,
      },
    ]);
    await a.stop();
  });

  it('waits for a server stopped cleanly (an upgrade): its recorders run on, one alarm says so, none is continued', async () => {
    const gone = registry('host-b', GONE_SCOPE, 8002);
    await gone.start();
    await seedLive('cap-stranded0001', ['08:59:00', '09:10:00'], 60);
    await gone.stop();
    const a = registry('host-a', 'local:host-a:/data/a', 8001);
    await a.start();
    await stranded(a).pass();
    expect(driver.launches).toEqual([]);
    expect(await t.app.ctx.instances.resolve('cap-stranded0001')).toMatchObject({
      scope: GONE_SCOPE,
      state: 'running',
    });
    const [alarm, ...more] = await openAlarms();
    expect(more).toEqual([]);
    // A planned stop is told, not paged.
    expect(alarm.severity).toBe('info');
    expect(alarm.message).toBe(
      `Server ${gone.id} (http://10.0.0.2:8002) on host-b was stopped at ${at('09:00:00')}: 1 recording of it run unwatched and are not judged until a server on host-b starts again with that data folder`,
    );
    // Started again, it takes its recorders back: the alarm is resolved.
    const again = registry('host-b', GONE_SCOPE, 8012);
    await again.start();
    await stranded(a).pass();
    expect(await openAlarms()).toEqual([]);
    await again.stop();
    await a.stop();
  });

  it('leaves the recorders of a dead server to a live server on its host (adoption), and says nothing of one whose recorders all ended', async () => {
    await repository.register({
      id: GONE_ID,
      host: 'host-b',
      internal_address: 'http://10.0.0.2:8002',
      version: '1.0.0',
      scope: GONE_SCOPE,
      started_at: at('08:50:00'),
      last_seen: at('08:59:00'),
    });
    await seedLive('cap-stranded0001', ['08:59:00', '09:10:00'], 60);
    const neighbour = registry('host-b', 'local:host-b:/data/other', 8004);
    await neighbour.start();
    await stranded(neighbour).pass();
    expect(driver.launches).toEqual([]);
    expect((await t.app.ctx.instances.resolve('cap-stranded0001')).scope).toBe(GONE_SCOPE);
    expect(await openAlarms()).toEqual([]);

    await t.app.ctx.db.kysely.updateTable('instances').set({ state: 'stopped' }).execute();
    await neighbour.stop();
    const a = registry('host-a', 'local:host-a:/data/a', 8001);
    await a.start();
    await stranded(a).pass();
    expect(driver.launches).toEqual([]);
    expect(await openAlarms()).toEqual([]);
    await a.stop();
  });
});
