import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordingGap } from '../../contract/instances';
import { alive, instancePids, killRecorders, startHlsSource, waitFor, type HlsSource } from '../../testkit/capture';
import { startServerCluster, type ServerCluster } from '../../testkit/server-cluster';
import { scaled } from '../../testkit/time-scale';
import { pause } from '../../testkit/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../../testkit/webhook-receiver';

const RECORDINGS = 4;
/** The window of issue "Servers that fail over only when a server is really gone": 200 s, the server lost 60 s in. */
const DURATION = 200;
const KILLED_INTO_WINDOW_MS = 60_000;
/** docs/architecture.md, "Performance budgets": a dead server's recordings are taken over within 30 s. */
const TAKEN_OVER_WITHIN_MS = 30_000;
/**
 * What a continued recording may lose beyond the time it took to continue it: the lost recorder's last
 * seconds its server had not yet been told of: its progress is written every 5 s, the segment it was
 * reading is 1 s, and the server reads the progress once a second (the local driver's reconcile pass).
 */
const LOST_BEYOND_CONTINUING_S = 5 + 1 + 1;
/**
 * Half the recordings are of a stream whose playlist lists only 6 segments: it has moved past where the
 * lost recorder stopped by the time another server continues (15-20 s), so they lose what left it. On
 * the 20-entry playlist the segment after the last one kept is usually still listed: nothing is lost.
 */
const SHORT_LIST = 6;
/** Two of the playlists' one-second segments (RESUME_MARGIN_SEGMENTS in recorder/hls-reader.ts). */
const RESUME_MARGIN_SECONDS = 2;

interface Recording {
  id: string;
  status: string;
  started_at: string;
  reason: string | null;
  url: string;
  gaps: RecordingGap[];
  covered_seconds: number | null;
  expected_seconds: number | null;
}

interface Details {
  id: string;
  state: string;
  recording: Recording | null;
}

/**
 * Three real servers on one PostgreSQL: A on host "host-a", B and C on "host-b" (SERVER_HOST_NAME; each
 * with its own data folder), all with the alarm webhook. A runs 4 recordings of a 200 s window of a live
 * HLS stream (two with a playlist of 20 one-second segments, two of 6); 60 s in, A and its recorders
 * are SIGKILLed, as when its machine is lost. No server is left on host-a to adopt them, so within 30 s
 * one of B and C takes each recording over and continues it with a recorder of its own, from the
 * segment after the last one A's recorder kept if the playlist still lists it, else from the oldest it
 * lists. Each recording keeps at least 200 s - (time to continue) - 4 s; one that lost content (all of
 * the short playlist's) ends partial with one server_down gap from where A's recorder stopped to the
 * new recorder's first media, counted once; the library tells the same as the fleet. The lost server's server_gone alarm reaches the webhook once, and is resolved (and told so)
 * when A starts again on host-a.
 */
describe('a server lost with its host while its recordings run', () => {
  let cluster: ServerCluster | undefined;
  let source: HlsSource | undefined;
  let shortSource: HlsSource | undefined;
  let webhook: WebhookReceiver | undefined;

  afterAll(async () => {
    await cluster?.close();
    for (const server of cluster?.servers ?? []) killRecorders(server.dataDir);
    await source?.close();
    await shortSource?.close();
    await webhook?.close();
  });

  const query = <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => cluster!.query<T>(text, values);

  it(
    'is continued on another host within 30 s from where it stopped, one gap each, and paged once until its host is back',
    async () => {
      source = await startHlsSource();
      shortSource = await startHlsSource({ listSize: SHORT_LIST });
      webhook = await startWebhookReceiver();
      cluster = await startServerCluster({
        servers: 3,
        env: { ALARM_WEBHOOK_URL: webhook.url },
        envOf: (index) => ({ SERVER_HOST_NAME: index === 0 ? 'host-a' : 'host-b' }),
      });
      const { servers } = cluster;
      const [first] = servers;
      const token = await cluster.login();
      const configs = Array.from({ length: RECORDINGS }, (_, index) => ({
        url: index % 2 ? shortSource?.url : source?.url,
        duration: DURATION,
        width: 320,
        height: 240,
      }));
      const launched = await first.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
        token,
        body: { configs, max_workers: 4 },
      });
      expect(launched.status, launched.text).toBe(200);
      const ids = launched.body.data.instances.map((instance) => instance.id);
      const details = async (id: string) =>
        (await cluster!.request<{ data: Details }>('GET', `/api/instances/${id}`, { token })).body.data;
      await waitFor(
        async () =>
          (await Promise.all(ids.map(async (id) => (await details(id)).state))).every((state) => state === 'running'),
        'every recording to run',
        60_000,
        500,
      );

      const lostScope = `local:host-a:${first.dataDir}`;
      expect((await query<{ scope: string }>('select distinct scope from instances')).map((row) => row.scope)).toEqual([
        lostScope,
      ]);
      const [{ window_start: windowStart }] = await query<{ window_start: string }>(
        'select min(window_start) as window_start from instances',
      );
      // Real time is the point: the server is lost 60 s into the window.
      await pause(Math.max(0, Date.parse(windowStart) + KILLED_INTO_WINDOW_MS - Date.now()));
      // The machine is lost: the server and every recorder on it.
      const pids = ids.map((id) => instancePids(first.dataDir, id));
      await first.kill('SIGKILL');
      killRecorders(first.dataDir);
      const killedAt = Date.now();
      await waitFor(() => pids.every(({ recorder }) => !alive(recorder)), 'the lost recorders to be gone', 10_000, 100);

      const continuing = servers.slice(1).map((server) => `local:host-b:${server.dataDir}`);
      /** When each recording was taken over, after the kill (ms): its time to continue. */
      const continuedAfterMs = new Map<string, number>();
      const taken = await waitFor(
        async () => {
          const rows = await query<{ id: string; scope: string }>('select id, scope from instances');
          for (const row of rows)
            if (continuing.includes(row.scope) && !continuedAfterMs.has(row.id))
              continuedAfterMs.set(row.id, Date.now() - killedAt);
          return rows.every((row) => continuing.includes(row.scope)) ? rows : undefined;
        },
        'a server on host-b to take over every recording',
        TAKEN_OVER_WITHIN_MS + 10_000,
        250,
      );
      const takenOverMs = Date.now() - killedAt;
      process.stdout.write(
        `taken over after ${(takenOverMs / 1000).toFixed(1)} s by ${[...new Set(taken.map((row) => row.scope))].join(', ')}\n`,
      );
      expect(takenOverMs).toBeLessThanOrEqual(TAKEN_OVER_WITHIN_MS);
      const [lastSeen] = await query<{ last_seen: string }>('select last_seen from servers where scope = $1', [
        lostScope,
      ]);

      const ended = await waitFor(
        async () => {
          const all = await Promise.all(ids.map(details));
          return all.every((row) => row.recording && row.recording.status !== 'recording') ? all : undefined;
        },
        'every recording to end',
        DURATION * 1000 + 90_000,
        1000,
      );
      for (const row of ended) {
        const recording = row.recording!;
        const summary = JSON.stringify(recording);
        expect(row.state, row.id).toBe('stopped');
        const shortPlaylist = recording.url === shortSource!.url;
        // One gap of the down time: from where the lost recorder stopped (the last segment it kept, as its
        // server last read it) to the continuing recorder's first media. Any other gap is a recorder's own:
        // the lost one's before the loss, or the continuing one's after its first media.
        const down = recording.gaps.filter((gap) => gap.cause === 'server_down');
        // The short playlist has always moved on: one gap. The long one may still list what followed.
        if (shortPlaylist) expect(down, summary).toHaveLength(1);
        else expect(down.length, summary).toBeLessThanOrEqual(1);
        if (down.length) expect(recording.status, summary).toBe('partial');
        const continuedAfterS = continuedAfterMs.get(row.id)! / 1000;
        process.stdout.write(
          `${row.id} (${shortPlaylist ? SHORT_LIST : 20} listed): continued after ${continuedAfterS.toFixed(1)} s, ${recording.covered_seconds} s kept, ${down.map((gap) => `gap ${gap.start} - ${gap.end}`).join('') || 'no gap'}\n`,
        );
        for (const gap of down) {
          const ownGap = (other: RecordingGap) =>
            other.cause !== 'server_down' &&
            (Date.parse(other.end) <= Date.parse(gap.start) || Date.parse(other.start) >= Date.parse(gap.end));
          expect(recording.gaps.filter((other) => other !== gap).every(ownGap), summary).toBe(true);
          expect(gap.reason, summary).toContain('on host-a was lost');
          // Where the lost recorder stopped: before the kill, within what its server wrote of it (every 5 s)
          // and a reading or two; the new recorder's first media is what the playlist still listed when it started.
          expect(Date.parse(gap.start), summary).toBeLessThanOrEqual(killedAt);
          expect(Date.parse(gap.start), summary).toBeGreaterThanOrEqual(
            Math.min(killedAt, Date.parse(lastSeen.last_seen)) - 10_000,
          );
          expect(Date.parse(gap.end), summary).toBeLessThanOrEqual(killedAt + takenOverMs);
          // All of it is content lost: what left the playlist before the new recorder could ask for it.
          expect(gap.content_lost_seconds, summary).toBeCloseTo(
            (Date.parse(gap.end) - Date.parse(gap.start)) / 1000,
            0,
          );
        }
        // The bound: the window less the time it took to continue it, less 7 s; and when the list had moved
        // past where the lost recorder stopped (a down gap: always on the short playlist, sometimes on the
        // long one under load), less the two listed segments a continuing recorder skips (hls-reader.ts).
        const skipped = down.length ? RESUME_MARGIN_SECONDS : 0;
        expect(recording.covered_seconds ?? 0, summary).toBeGreaterThanOrEqual(
          DURATION - continuedAfterS - LOST_BEYOND_CONTINUING_S - skipped,
        );
        // Counted once: what was covered and the gaps make up the window, less what the lost recorders had
        // not yet shown at the last heartbeat (their progress is written every 5 s).
        const gapSeconds = recording.gaps.reduce((sum, g) => sum + (Date.parse(g.end) - Date.parse(g.start)) / 1000, 0);
        expect(recording.covered_seconds ?? 0, summary).toBeLessThanOrEqual(DURATION - gapSeconds + 0.5);
        expect(recording.covered_seconds ?? 0, summary).toBeGreaterThanOrEqual(DURATION - gapSeconds - 8);
        expect(recording.reason ?? '', summary).not.toContain('relaunched');

        // The library tells the same.
        const library = await cluster.request<{ data: Recording }>('GET', `/api/recordings/${recording.id}`, { token });
        expect(library.status, library.text).toBe(200);
        expect(library.body.data).toMatchObject({
          status: recording.status,
          covered_seconds: recording.covered_seconds,
          gaps: recording.gaps,
        });
      }
      // Continued, not duplicated: one row each.
      expect((await cluster.request<{ data: unknown[] }>('GET', '/api/instances/', { token })).body.data).toHaveLength(
        RECORDINGS,
      );
      // One alarm for the lost server (not one per recording), saying what was continued; open while no
      // server runs on its host.
      const alarms = async () =>
        (
          await cluster!.request<{
            data: { alarms: { id: string; kind: string; message: string; resolved_at: string | null }[] };
          }>('GET', '/api/alarms?status=all', { token })
        ).body.data.alarms;
      const gone = (await alarms()).filter((alarm) => alarm.kind === 'server_gone');
      expect(gone, JSON.stringify(gone)).toHaveLength(1);
      expect(gone[0].message).toContain(`${RECORDINGS} recordings continued on server`);
      expect(gone[0].resolved_at).toBeNull();
      expect((await alarms()).filter((alarm) => alarm.kind === 'recorder_died')).toEqual([]);
      const told = (event: string) =>
        webhook!.posts().filter((post) => post.event === event && post.alarms.some((alarm) => alarm.id === gone[0].id));
      // Paged past the grouping window (30 s), once, while the host stayed down.
      expect(told('raised'), JSON.stringify(webhook.posts())).toHaveLength(1);

      // A server runs on host-a again: the alarm is resolved, and the webhook told so once.
      await first.start();
      await waitFor(
        async () => (await alarms()).find((alarm) => alarm.id === gone[0].id)?.resolved_at,
        'the server_gone alarm to be resolved once a server runs on host-a',
        60_000,
        500,
      );
      await waitFor(() => told('resolved').length > 0, 'the webhook to be told the alarm is resolved', 60_000, 500);
      await webhook.quiet(5000, scaled(30_000));
      expect(told('raised'), JSON.stringify(webhook.posts())).toHaveLength(1);
      expect(told('resolved'), JSON.stringify(webhook.posts())).toHaveLength(1);
      expect(told('repeated')).toEqual([]);
    },
    scaled(480_000),
  );
});
