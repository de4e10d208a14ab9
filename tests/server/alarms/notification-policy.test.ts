import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alarmsResponseSchema,
  silenceResponseSchema,
  silencesResponseSchema,
  type Alarm,
} from '../../../contract/alarms';
import type { RecordingGap } from '../../../contract/instances';
import { buildApp } from '../../../server/app';
import { ManualTimer } from '../../../testkit/scheduler-doubles';
import { waitFor } from '../../../testkit/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testkit/webhook-receiver';
import { addMosques } from '../helpers/mosques';
import { recordingReading, seedRecording } from '../helpers/recordings';
import { notificationSettler } from '../helpers/settle-notifications';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * The notification policy end to end: real alarms raised by the real modules, the default group window
 * (30 s) and repeat interval (4 h) on the test clock, and the webhook counted at a real receiver.
 */
describe('alarm notification policy', () => {
  let hook: WebhookReceiver;
  let t: TestApp;
  let token: string;

  /** Seconds after 09:05 UTC on Monday 2026-11-23 (the test clock starts at 09:00; beforeAll settles the first minute). */
  const at = (s: number) => new Date(Date.parse('2026-11-23T09:05:00.000Z') + s * 1000).toISOString();
  // Adding a mosque without a stream raises `unschedulable` for it: the tests look at the other kinds.
  const about = (alarm: Alarm, mosque: string) =>
    alarm.kind !== 'unschedulable' && (alarm.mosque_name === mosque || alarm.mosque_id === mosque);
  const postsAbout = (mosque: string) =>
    hook.posts().filter((post) => post.alarms.some((alarm) => about(alarm, mosque)));
  // A settling sentinel raised while a window is being sent may join that post: kinds are read per mosque.
  const kindsPostedAbout = (mosque: string) =>
    postsAbout(mosque).flatMap((post) =>
      post.alarms.filter((alarm) => about(alarm, mosque)).map((alarm) => alarm.kind),
    );
  const alarmsAbout = async (mosque: string) =>
    (await t.app.ctx.alarms.list('all', 500)).filter((alarm) => about(alarm, mosque));

  const settle = notificationSettler(
    () => t,
    () => hook,
  );

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    t = await createTestApp({ env: { ALARM_WEBHOOK_URL: hook.url }, build: { healthCheckIntervalMs: 0 } });
    token = await t.login();
    const mosques = ['stallmosq1', 'badfrid001', 'silenced01', 'inhibit001'];
    await addMosques(t, token, ...mosques);
    // Their `unschedulable` alarms are posted now, in a group of their own: left open, the group took in
    // the first test's stall when the clock next moved (a post of "5 alarms" instead of the stall's own).
    // The scheduler raises them once it has planned the new mosques, which a loaded machine finished
    // after the settling had begun (a post of "4 alarms" in one CI run): all four are waited for first.
    await waitFor(
      async () =>
        (await t.app.ctx.alarms.list('all', 500)).filter(
          (alarm) => alarm.kind === 'unschedulable' && mosques.includes(alarm.mosque_id ?? ''),
        ).length === mosques.length,
      "the new mosques' unschedulable alarms",
    );
    await settle();
  });
  afterAll(async () => {
    await t?.close();
    await hook.close();
  });

  it('one 70 s stall over many readings: one alarm, two notifications (raised, resolved)', async () => {
    await seedRecording(t, 'cap-stall0001', 'stallmosq1');
    const dropped = (end: string): RecordingGap => ({
      start: at(30),
      end,
      cause: 'stream_dropped',
      reason: 'Stream dropped (HTTP 404)',
      content_lost_seconds: 0,
    });
    // A reading every 2 s for 10 minutes: the hole grows to 70 s, then media flows and the closed gap stays listed.
    for (let s = 32; s <= 630; s += 2) {
      t.clock.set(at(s));
      await t.app.ctx.recordings.applyReading(
        'cap-stall0001',
        recordingReading({ gaps: [dropped(at(Math.min(s, 100)))] }),
      );
    }
    await settle();

    const alarms = await alarmsAbout('stallmosq1');
    expect(alarms).toEqual([expect.objectContaining({ kind: 'stall', resolved_at: expect.any(String) as string })]);
    const posts = postsAbout('stallmosq1');
    expect(posts.map((post) => post.event)).toEqual(['raised', 'resolved']);
    expect(posts[0].text).toBe(
      '🟠 WARNING Mosque stallmosq1: Mosque stallmosq1: nothing recorded since 09:05:30 UTC: the stream dropped (Stream dropped (HTTP 404)) (Monday 2026-11-23)',
    );
    expect(posts[1].text).toMatch(/^✅ RESOLVED /);
  });

  it('a bad Friday with several causes: at most one notification per cause', async () => {
    await seedRecording(t, 'cap-badfri001', 'badfrid001');
    const base = Date.parse(t.clock.now().toISOString());
    const since = (s: number) => new Date(base + s * 1000).toISOString();
    const stalled = (end: number): RecordingGap => ({
      start: since(0),
      end: since(end),
      cause: 'stream_stalled',
      reason: 'Stream stalled (no media for 15 s)',
      content_lost_seconds: end,
    });
    // The recorder dies and is relaunched, the stream stalls twice, and the Friday ends partial.
    for (let s = 2; s <= 300; s += 2) {
      t.clock.set(since(s));
      const second: RecordingGap[] = s > 200 ? [{ ...stalled(Math.min(s, 290)), start: since(200) }] : [];
      await t.app.ctx.recordings.applyReading(
        'cap-badfri001',
        recordingReading({ relaunches: 1, gaps: [stalled(Math.min(s, 90)), ...second] }),
      );
    }
    await t.app.ctx.recordings.applyReading(
      'cap-badfri001',
      recordingReading({
        status: 'partial',
        coveredSeconds: 400,
        relaunches: 1,
        reason: 'Recorded 400 s of 600 s',
        gaps: [stalled(90), { ...stalled(290), start: since(200) }],
      }),
    );
    await settle();

    const alarms = await alarmsAbout('badfrid001');
    expect(alarms.map((alarm) => alarm.kind).sort()).toEqual(['capture_partial', 'recorder_died', 'stall']);
    const posts = postsAbout('badfrid001');
    for (const alarm of alarms) {
      const raised = posts.filter(
        (post) => post.event === 'raised' && post.alarms.some((listed) => listed.id === alarm.id),
      );
      // A recorder's death is listed, never sent: its hole raised the stall, and the outcome says the rest.
      expect(raised, alarm.kind).toHaveLength(alarm.kind === 'recorder_died' ? 0 : 1);
    }
    expect(posts.length).toBeLessThanOrEqual(alarms.length * 2);
  });

  it('a wave of 12 launch failures within the group window is one message listing them', async () => {
    // The wave starts on a minute, so its span reads "at HH:MM".
    t.clock.set(new Date(Math.ceil((t.clock.now().getTime() + 1) / 60_000) * 60_000));
    const start = t.clock.now();
    for (let i = 1; i <= 12; i++) {
      await t.app.ctx.alarms.raise({
        kind: 'launch_failed',
        key: `launch_failed:wave-${i}`,
        message: 'the Friday recording could not be launched after 3 attempts: capacity',
        mosqueName: `Wave Mosque ${i}`,
        jobId: `wave-${i}`,
      });
      t.clock.advance(2_000);
    }
    t.clock.set(new Date(start.getTime() + 31_000));
    const post = await waitFor(
      () => hook.posts().find((p) => p.alarms.some((alarm) => alarm.kind === 'launch_failed')),
      'the wave to be posted',
      10_000,
      20,
    );
    await settle();
    const waves = hook.posts().filter((p) => p.alarms.some((alarm) => alarm.kind === 'launch_failed'));
    expect(waves).toHaveLength(1);
    const startedAt = start.toISOString().slice(11, 16);
    expect(post.text.split('\n')[0]).toBe(
      `🔴 CRITICAL 12 mosques failed to start at ${startedAt} UTC (Monday 2026-11-23)`,
    );
    expect(post.text.split('\n').slice(1)).toHaveLength(12);
    expect(post.text).toContain(
      '• Wave Mosque 7: the Friday recording could not be launched after 3 attempts: capacity',
    );
    expect(post).toMatchObject({ event: 'raised' });
    expect(post.alarms).toHaveLength(12);
    expect(post.alarm).toBeUndefined();

    // Each alarm shows the one delivery it went out in.
    const listed = alarmsResponseSchema
      .parse((await t.request({ method: 'GET', url: '/api/alarms', token })).json())
      .data.alarms.filter((alarm) => alarm.kind === 'launch_failed');
    expect(listed.map((alarm) => alarm.deliveries.map((d) => `${d.event}:${d.state}`))).toEqual(
      Array.from({ length: 12 }, () => ['raised:delivered']),
    );
  });

  it('a silence holds the notifications of a mosque (the alarm is still listed); lifting it lets the next ones through', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/alarms/silences',
      token,
      payload: { mosque_id: 'silenced01', duration_minutes: 120, comment: 'Stream moved; fixing it' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const silence = silenceResponseSchema.parse(created.json()).data;
    expect(silence).toMatchObject({
      mosque_id: 'silenced01',
      mosque_name: 'Mosque silenced01',
      kind: null,
      created_by: 'admin',
      lifted_at: null,
      ends_at: new Date(t.clock.now().getTime() + 120 * 60_000).toISOString(),
    });
    const active = silencesResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/alarms/silences', token })).json(),
    ).data.silences;
    expect(active.map((s) => s.id)).toEqual([silence.id]);

    // Both alarms are about one mosque (its name is read anew with each alarm): they are told apart by id.
    const postsOf = (alarmId: string) =>
      hook.posts().filter((post) => post.alarms.some((alarm) => alarm.id === alarmId));
    const held = await t.app.ctx.alarms.raise({
      kind: 'missed',
      key: 'missed:silenced-1',
      message: 'the Friday recording was never launched',
      mosqueId: 'silenced01',
      mosqueName: 'Mosque silenced01',
    });
    await settle();
    expect(postsOf(held.id)).toEqual([]);
    const listed = alarmsResponseSchema.parse((await t.request({ method: 'GET', url: '/api/alarms', token })).json())
      .data.alarms;
    expect(listed.find((alarm) => alarm.id === held.id)).toMatchObject({ resolved_at: null, deliveries: [] });

    const lifted = await t.request({ method: 'DELETE', url: `/api/alarms/silences/${silence.id}`, token });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(silenceResponseSchema.parse(lifted.json()).data).toMatchObject({
      lifted_by: 'admin',
      lifted_at: t.clock.now().toISOString(),
    });
    expect(
      silencesResponseSchema.parse((await t.request({ method: 'GET', url: '/api/alarms/silences', token })).json()).data
        .silences,
    ).toEqual([]);

    const through = await t.app.ctx.alarms.raise({
      kind: 'missed',
      key: 'missed:silenced-2',
      message: 'the Friday recording was never launched',
      mosqueId: 'silenced01',
      mosqueName: 'Mosque silenced01',
    });
    await settle();
    expect(postsOf(through.id).map((post) => post.event)).toEqual(['raised']);
    // The alarm held while silenced is announced by the next sweep, once: nothing holds it now.
    t.clock.advance(60_000);
    await settle();
    expect(postsOf(held.id).map((post) => post.event)).toEqual(['raised']);

    const activity = (await t.request({ method: 'GET', url: '/api/activity?limit=50', token }))
      .json<{ data: { entries: { action: string }[] } }>()
      .data.entries.map((e) => e.action);
    expect(activity).toEqual(expect.arrayContaining(['alarm.silence', 'alarm.silence_lift']));
  });

  it('a silence of a kind holds that kind only', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/alarms/silences',
      token,
      payload: { kind: 'missed', duration_minutes: 30, comment: 'Known planning gap' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.ctx.alarms.raise({
      kind: 'missed',
      key: 'missed:kind-1',
      message: 'never launched',
      mosqueName: 'Kind Held Mosque',
    });
    await t.app.ctx.alarms.raise({
      kind: 'launch_failed',
      key: 'launch_failed:kind-2',
      message: 'could not launch',
      mosqueName: 'Kind Other Mosque',
    });
    await settle();
    expect(postsAbout('Kind Held Mosque')).toEqual([]);
    expect(postsAbout('Kind Other Mosque')).toHaveLength(1);
    // Past its end the silence holds nothing: the sweep announces what it held.
    t.clock.advance(30 * 60_000);
    await settle();
    expect(postsAbout('Kind Held Mosque').map((post) => post.event)).toEqual(['raised']);
  });

  it('a recorder that died is listed but never sent, nor its resolution', async () => {
    const died = await t.app.ctx.alarms.raise({
      kind: 'recorder_died',
      key: 'recorder_died:cap-console',
      message: 'the recorder died',
      mosqueName: 'Console Only Mosque',
    });
    t.clock.advance(5 * 60_000);
    await settle();
    await t.app.ctx.alarms.resolve('recorder_died:cap-console');
    t.clock.advance(5 * 60_000);
    await settle();
    expect((await t.app.ctx.alarms.list('all', 500)).map((alarm) => alarm.id)).toContain(died.id);
    expect(postsAbout('Console Only Mosque')).toEqual([]);
  });

  it('inhibition: a failed capture holds the stall and launch error it explains; an open pre-flight alarm holds nothing', async () => {
    await t.app.ctx.alarms.raise({
      kind: 'capture_failed',
      key: 'outcome:rec-inhibit',
      message: 'nothing was recorded',
      mosqueId: 'inhibit001',
      mosqueName: 'Inhibit Mosque',
      instanceId: 'cap-inhibit01',
      jobId: 'job-inhibit',
    });
    const stall = await t.app.ctx.alarms.raise({
      kind: 'stall',
      key: 'stall:rec-inhibit',
      message: 'no media',
      mosqueId: 'inhibit001',
      mosqueName: 'Inhibit Mosque',
      instanceId: 'cap-inhibit01',
    });
    await t.app.ctx.alarms.raise({
      kind: 'launch_failed',
      key: 'launch_failed:job-inhibit',
      message: 'could not launch',
      mosqueId: 'inhibit001',
      mosqueName: 'Inhibit Mosque',
      jobId: 'job-inhibit',
    });
    await settle();
    expect(kindsPostedAbout('Inhibit Mosque')).toEqual(['capture_failed']);
    // Its resolution is not announced either: it never was.
    await t.app.ctx.alarms.resolve('stall:rec-inhibit');
    await settle();
    expect(postsAbout('Inhibit Mosque').flatMap((post) => post.alarms.map((alarm) => alarm.id))).not.toContain(
      stall.id,
    );

    await t.app.ctx.alarms.raise({
      kind: 'preflight',
      key: 'preflight:provider',
      message: 'Pre-flight: the capture provider is not healthy',
    });
    await t.app.ctx.alarms.raise({
      kind: 'stall',
      key: 'stall:rec-outage',
      message: 'no media',
      mosqueName: 'Outage Mosque',
      instanceId: 'cap-outage01',
    });
    await settle();
    expect(hook.posts().filter((post) => post.alarms.some((alarm) => alarm.kind === 'preflight'))).toHaveLength(1);
    // A pre-flight check can be wrong (a probe timed out under load): what else happens is still told.
    expect(kindsPostedAbout('Outage Mosque')).toEqual(['stall']);
    await t.app.ctx.alarms.resolve('preflight:provider', 'stall:rec-outage');
  });

  it('a server lost with its host is sent once past the window; a planned stop is one informational message', async () => {
    await t.app.ctx.alarms.raise({
      kind: 'server_gone',
      key: 'server_gone:local:host-lost:/data',
      message: 'Server lost on host-lost',
      mosqueName: 'Lost Host',
    });
    await settle();
    t.clock.advance(4 * 3_600_000 + 60_000);
    await settle();
    expect(postsAbout('Lost Host').map((post) => post.text.split(' ').slice(0, 2).join(' '))).toEqual(['🔴 CRITICAL']);
    await t.app.ctx.alarms.resolve('server_gone:local:host-lost:/data');

    await t.app.ctx.alarms.raise({
      kind: 'server_gone',
      key: 'server_gone:local:host-upgraded:/data',
      severity: 'info',
      message: 'Server stopped on host-upgraded',
      mosqueName: 'Upgraded Host',
    });
    // Started again within the group window: still told once, and its return is not a message.
    t.clock.advance(10_000);
    await t.app.ctx.alarms.resolve('server_gone:local:host-upgraded:/data');
    await settle();
    expect(postsAbout('Upgraded Host').map((post) => post.event)).toEqual(['raised']);
    expect(postsAbout('Upgraded Host')[0].text).toMatch(/^ℹ️ INFO /);

    // Back before its message's turn came (its raise and its end one after the other): still told once.
    await t.app.ctx.alarms.raise({
      kind: 'server_gone',
      key: 'server_gone:local:host-quick:/data',
      severity: 'info',
      message: 'Server stopped on host-quick',
      mosqueName: 'Quick Host',
    });
    await t.app.ctx.alarms.resolve('server_gone:local:host-quick:/data');
    await settle();
    expect(postsAbout('Quick Host').map((post) => post.event)).toEqual(['raised']);
  });

  it('an alarm still open is announced again after the repeat interval, and its resolution once', async () => {
    await t.app.ctx.alarms.raise({
      kind: 'stall',
      key: 'stall:rec-repeat',
      message: 'no media since 09:00:30 UTC',
      mosqueName: 'Repeat Mosque',
    });
    // A Friday's verdict is told once, and an acknowledged alarm is not reminded of.
    await t.app.ctx.alarms.raise({
      kind: 'capture_partial',
      key: 'outcome:rec-told-once',
      message: 'only 300 s of 600 s recorded',
      mosqueName: 'Verdict Mosque',
    });
    const seen = await t.app.ctx.alarms.raise({
      kind: 'stall',
      key: 'stall:rec-seen',
      message: 'no media since 09:01:00 UTC',
      mosqueName: 'Seen Mosque',
    });
    await t.app.ctx.alarms.acknowledge(seen.id, { id: 1, username: 'admin' });
    await settle();
    expect(postsAbout('Repeat Mosque').map((post) => post.event)).toEqual(['raised']);
    t.clock.advance(3 * 3_600_000);
    await settle();
    expect(postsAbout('Repeat Mosque').map((post) => post.event)).toEqual(['raised']);
    t.clock.advance(3_600_000);
    await settle();
    const posts = postsAbout('Repeat Mosque');
    expect(posts.map((post) => post.event)).toEqual(['raised', 'repeated']);
    // Every alarm still open is reminded of in one message.
    expect(posts[1].text).toMatch(/^🔁 STILL OPEN /);
    expect(posts[1].text).toContain('\n• Repeat Mosque: no media since 09:00:30 UTC');
    expect(postsAbout('Verdict Mosque').map((post) => post.event)).toEqual(['raised']);
    expect(postsAbout('Seen Mosque').map((post) => post.event)).toEqual(['raised']);

    await t.app.ctx.alarms.resolve('stall:rec-repeat');
    await t.app.ctx.alarms.resolve('stall:rec-repeat');
    await settle();
    expect(postsAbout('Repeat Mosque').map((post) => post.event)).toEqual(['raised', 'repeated', 'resolved']);
  });
});

describe('alarm notifications across a restart', () => {
  it('an alarm whose window a restart cut short is announced by the next server once it has settled', async () => {
    const hook = await startWebhookReceiver();
    const t = await createTestApp({
      env: { ALARM_WEBHOOK_URL: hook.url },
      build: { healthCheckIntervalMs: 0 },
    });
    try {
      await t.app.ctx.alarms.raise({
        kind: 'missed',
        key: 'missed:restart-1',
        message: 'never launched',
        mosqueName: 'Restart Mosque',
      });
      // The server stops 10 s into the group window: nothing was sent.
      t.clock.advance(10_000);
      await t.app.close();
      expect(hook.requests).toHaveLength(0);

      const app = await buildApp(t.config, {
        logger: false,
        clock: t.clock,
        healthCheckIntervalMs: 0,
        scheduler: { timer: new ManualTimer() },
      });
      try {
        await app.ready();
        // The sweep (every minute) leaves an alarm to its wave's window and a minute more, then announces it.
        t.clock.advance(120_000);
        const [post] = await waitFor(
          () => (hook.requests.length > 0 ? hook.posts() : undefined),
          'the alarm to be announced',
          10_000,
          20,
        );
        expect(post).toMatchObject({
          event: 'raised',
          alarms: [expect.objectContaining({ mosque_name: 'Restart Mosque' })],
        });
      } finally {
        await app.close();
      }
    } finally {
      await t.close();
      await hook.close();
    }
  });
});

describe('alarm silences API', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    token = await t.login();
  });
  afterAll(() => t?.close());

  it.each([
    [{ duration_minutes: 60, comment: 'neither' }, 'Name a mosque or an alarm kind to silence'],
    [{ mosque_id: 'nosuchmosq', duration_minutes: 60, comment: 'unknown' }, 'Mosque nosuchmosq does not exist'],
    [{ kind: 'stall', duration_minutes: 0, comment: 'too short' }, 'A silence lasts at least 1 minute'],
    [
      { kind: 'stall', duration_minutes: 20_000, comment: 'too long' },
      'A silence lasts at most 10080 minutes (a week)',
    ],
    [{ kind: 'stall', duration_minutes: 60, comment: '   ' }, 'Say why in a comment'],
    [{ kind: 'noise', duration_minutes: 60, comment: 'bad kind' }, 'kind'],
    [{ kind: 'stall', duration_minutes: 60, comment: 'extra', until: 'forever' }, 'until'],
  ])('refuses %j with a 400 that says why', async (payload, detail) => {
    const response = await t.request({ method: 'POST', url: '/api/alarms/silences', token, payload });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.body).toContain(detail);
    expect((await t.app.ctx.db.kysely.selectFrom('alarm_silences').selectAll().execute()).length).toBe(0);
  });

  it('needs a session, and answers 404 for a silence it does not know', async () => {
    expect((await t.request({ method: 'GET', url: '/api/alarms/silences' })).statusCode).toBe(401);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/alarms/silences',
          payload: { kind: 'stall', duration_minutes: 5, comment: 'x' },
        })
      ).statusCode,
    ).toBe(401);
    const missing = await t.request({ method: 'DELETE', url: '/api/alarms/silences/sil-0000000000000000', token });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ detail: 'Silence sil-0000000000000000 not found' });
  });

  it('lists ended and lifted silences with status=all', async () => {
    const created = silenceResponseSchema.parse(
      (
        await t.request({
          method: 'POST',
          url: '/api/alarms/silences',
          token,
          payload: { kind: 'stall', duration_minutes: 10, comment: 'short' },
        })
      ).json(),
    ).data;
    t.clock.advance(11 * 60_000);
    expect(
      silencesResponseSchema.parse((await t.request({ method: 'GET', url: '/api/alarms/silences', token })).json()).data
        .silences,
    ).toEqual([]);
    const all = silencesResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/alarms/silences?status=all', token })).json(),
    ).data.silences;
    expect(all).toEqual([expect.objectContaining({ id: created.id, kind: 'stall', comment: 'short' })]);
  });
});
