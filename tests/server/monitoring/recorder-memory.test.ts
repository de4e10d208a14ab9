import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, instancePids, killRecorders, startHlsSource, waitFor, type HlsSource } from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';
import { createTestApp, type TestApp } from '../helpers/test-app';

// PostgreSQL pass: skipped: a figure read from /proc of a recorder process, no table involved

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';
const MIB = 1024 * 1024;

/** The value of a series of the exposition text (labels as written by prom-client), or undefined. */
const sample = (text: string, series: RegExp): number | undefined => {
  const line = text.split('\n').find((candidate) => series.test(candidate));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('recorder resident memory on /metrics', () => {
  let t: TestApp;
  let source: HlsSource;
  const scrape = async () => {
    const response = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    [t, source] = await Promise.all([
      createTestApp({ env: { METRICS_TOKEN }, build: { healthCheckIntervalMs: 0 } }),
      startHlsSource(),
    ]);
  });
  afterAll(async () => {
    killRecorders(t.config.dataDir);
    await source?.close();
    await t?.close();
  });

  it(
    'exports each running recorder and the largest, measured from its process',
    { timeout: scaled(60_000) },
    async () => {
      const before = await scrape();
      expect(sample(before, /^capture_recorder_resident_max_bytes\{/)).toBe(0);
      const token = await t.login();
      const launch = await t.request({
        method: 'POST',
        url: '/api/instances/launch',
        token,
        payload: { configs: [{ url: source.url, duration: 30, width: 320, height: 240 }], max_workers: 1 },
      });
      expect(launch.statusCode, launch.body).toBe(200);
      const id = launch.json<{ data: { instances: { id: string }[] } }>().data.instances[0].id;
      const pid = await waitFor(
        () => instancePids(t.config.dataDir, id).recorder,
        'the recorder to start',
        scaled(20_000),
      );

      const series = new RegExp(`^capture_recorder_resident_bytes\\{instance_id="${id}"`);
      // A Node process holds tens of MiB once it has loaded its code (on a busy machine the first scrape
      // can catch it at 9 MiB, still starting): the figure is its own, not the server's nor a constant.
      const text = await waitFor(async () => {
        const body = await scrape();
        return (sample(body, series) ?? 0) > 10 * MIB ? body : undefined;
      }, 'the recorder on /metrics, loaded');
      const resident = sample(text, series) ?? 0;
      expect(resident).not.toBe(process.memoryUsage.rss());
      expect(sample(text, /^capture_recorder_resident_max_bytes\{/)).toBeGreaterThanOrEqual(resident);
      expect(text).toMatch(/^capture_recorder_resident_max_bytes\{server="[^"]+"\}/m);

      // Stopped (not killed: the driver would start a killed one again), it leaves the export.
      const stop = await t.request({
        method: 'POST',
        url: '/api/instances/terminate',
        token,
        payload: { instance_ids: [id] },
      });
      expect(stop.statusCode, stop.body).toBe(200);
      await waitFor(
        async () => sample(await scrape(), series) === undefined,
        'the stopped recorder to leave /metrics',
        scaled(30_000),
      );
      await waitFor(() => !alive(pid), 'the stopped recorder to exit');
    },
  );
});
