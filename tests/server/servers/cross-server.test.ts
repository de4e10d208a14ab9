import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killRecorders, startHlsSource, waitFor, type HlsSource } from '../../../testkit/capture';
import { startServerCluster, type ClusterServer, type ServerCluster } from '../../../testkit/server-cluster';
import { scaled } from '../../../testkit/time-scale';

interface Details {
  id: string;
  state: string;
  recording: {
    id: string;
    status: string;
    bytes: number;
    download_url: string | null;
    file_name: string | null;
  } | null;
}
interface TerminateAnswer {
  data: { results: { instance_id: string; success: boolean; message: string }[]; terminated: number; failed: number };
}

/** What an operator's command may take when it goes through a server that does not run the recorder. */
const ANSWER_WITHIN_MS = 2000;

/**
 * Three real servers on one PostgreSQL, each with its own data folder (so each runs its own
 * recorders, on its own disk): terminate, logs and emergency stop through any server act on the
 * recorders of every server, answered within 2 s; the media of a recording on one server's disk
 * plays through another (proxied, Range kept), and while its server is down the answer names it.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('any server controls any recorder, and serves any media', () => {
  let cluster: ServerCluster;
  let source: HlsSource;
  let token: string;
  /** One recorder launched on each server, by index. */
  const launched: string[] = [];

  beforeAll(async () => {
    source = await startHlsSource();
    cluster = await startServerCluster({ servers: 3 });
    token = await cluster.login();
    for (const server of cluster.servers) {
      // 320x240 is the source's own frame size: the recorder copies it (a fraction of a core each).
      const answer = await server.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
        token,
        body: { configs: [{ url: source.url, duration: 300, width: 320, height: 240 }], max_workers: 1 },
      });
      expect(answer.status, answer.text).toBe(200);
      launched.push(answer.body.data.instances[0].id);
    }
    await waitFor(
      async () => {
        const states = await Promise.all(
          launched.map(
            async (id) =>
              (await cluster.request<{ data: Details }>('GET', `/api/instances/${id}`, { token })).body.data.state,
          ),
        );
        return states.every((state) => state === 'running');
      },
      'every recorder to run',
      60_000,
      500,
    );
  }, scaled(240_000));

  afterAll(async () => {
    await cluster?.close();
    for (const server of cluster?.servers ?? []) killRecorders(server.dataDir);
    await source?.close();
  });

  const timed = async <T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const started = performance.now();
    const value = await call();
    return { value, ms: performance.now() - started };
  };
  const details = (via: ClusterServer | ServerCluster, id: string) =>
    via.request<{ data: Details }>('GET', `/api/instances/${id}`, { token });

  it('reads the logs of a recorder through a server that does not run it, within 2 s', async () => {
    const [first, second, third] = cluster.servers;
    for (const [via, id] of [
      [second, launched[0]],
      [third, launched[1]],
      [first, launched[2]],
    ] as const) {
      const { value: answer, ms } = await timed(() =>
        via.request<{ data: { logs: string[] } }>('GET', `/api/instances/${id}/logs?lines=50`, { token }),
      );
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data.logs.join('\n')).toMatch(/media is flowing|recording/i);
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
  });

  it("terminates a recorder through another server, within 2 s, and the owner's recorder stops", async () => {
    const [, second] = cluster.servers;
    const { value: answer, ms } = await timed(() =>
      second.request<TerminateAnswer>('POST', '/api/instances/terminate', {
        token,
        body: { instance_ids: [launched[0]] },
      }),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.results).toEqual([expect.objectContaining({ instance_id: launched[0], success: true })]);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    const ended = await waitFor(
      async () => {
        const row = (await details(second, launched[0])).body.data;
        // The recording is judged a moment before the row leaves 'stopping'.
        return row.recording && row.recording.status !== 'recording' && row.state !== 'stopping' ? row : undefined;
      },
      'the terminated recording to end',
      60_000,
      500,
    );
    expect(ended.state).toBe('terminated');
    expect(ended.recording?.bytes).toBeGreaterThan(0);
  });

  it("plays media on the first server's disk through the others (proxied, Range kept)", async () => {
    const [first, second, third] = cluster.servers;
    const recordingId = (await details(first, launched[0])).body.data.recording?.id as string;
    const whole = await first.request('GET', `/api/recordings/${recordingId}/media`, { token });
    expect(whole.status).toBe(200);
    const size = Number(whole.headers.get('content-length'));
    expect(size).toBeGreaterThan(1000);
    for (const via of [second, third]) {
      const full = await fetch(`${via.baseUrl}/api/recordings/${recordingId}/media`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(full.status).toBe(200);
      expect(Buffer.from(await full.arrayBuffer()).length).toBe(size);
      const part = await fetch(`${via.baseUrl}/api/recordings/${recordingId}/media`, {
        headers: { authorization: `Bearer ${token}`, range: 'bytes=100-199' },
      });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
      const expected = Buffer.from(
        await (
          await fetch(`${first.baseUrl}/api/recordings/${recordingId}/media`, {
            headers: { authorization: `Bearer ${token}`, range: 'bytes=100-199' },
          })
        ).arrayBuffer(),
      );
      expect(Buffer.from(await part.arrayBuffer()).equals(expected)).toBe(true);
    }
    // The download link the instance details offer is served by every server, as an attachment.
    const recording = (await details(second, launched[0])).body.data.recording;
    const downloadUrl = recording?.download_url ?? 'no download link';
    for (const via of [first, second, third]) {
      const download = await fetch(`${via.baseUrl}${downloadUrl}`, { headers: { authorization: `Bearer ${token}` } });
      expect(download.status, `${downloadUrl} through ${via.baseUrl}`).toBe(200);
      expect(download.headers.get('content-disposition')).toContain(`attachment; filename="${recording?.file_name}"`);
      expect(Buffer.from(await download.arrayBuffer()).length).toBe(size);
    }
    // A signed link (what the player opens) made by one server plays through another.
    const link = await second.request<{ data: { url: string } }>('POST', `/api/recordings/${recordingId}/media-link`, {
      token,
    });
    expect(link.status, link.text).toBe(200);
    expect((await fetch(`${third.baseUrl}${link.body.data.url}`)).status).toBe(200);

    // Its server down: the answer says which server holds it.
    await first.stop();
    try {
      const down = await second.request<{ detail: string }>('GET', `/api/recordings/${recordingId}/media`, { token });
      expect(down.status).toBe(503);
      expect(down.body.detail).toContain(first.baseUrl);
    } finally {
      await first.start();
    }
  });

  it('emergency stop through one server stops the recorders of every server, within 2 s', async () => {
    const [, , third] = cluster.servers;
    const { value: answer, ms } = await timed(() =>
      third.request<TerminateAnswer>('POST', '/api/instances/terminate-all?force=true', { token }),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.results.map((r) => r.instance_id).sort()).toEqual([launched[1], launched[2]].sort());
    expect(answer.body.data.failed, JSON.stringify(answer.body.data.results)).toBe(0);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    await waitFor(
      async () =>
        (await Promise.all(launched.slice(1).map(async (id) => (await details(cluster, id)).body.data.state))).every(
          (state) => state === 'terminated',
        ),
      'every recorder to stop',
      60_000,
      500,
    );
  });
});
