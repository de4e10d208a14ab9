import path from 'node:path';
import { expect } from 'vitest';
import type { InstanceDetails, Recording } from '../../../contract/instances';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { decodesCleanly, ffprobe, killRecorders, waitFor } from '../../../testkit/capture';

/**
 * A real app whose recorders retry quickly (1 s growing to 2 s) and call a stream stalled after 5 s,
 * so a recording window of tens of seconds shows every way a capture fights for its window.
 */
export interface WindowHarness {
  t: TestApp;
  launch(url: string, duration: number, mosqueId: string): Promise<{ id: string; launchedAt: number }>;
  details(id: string): Promise<InstanceDetails>;
  /** Waits for the recording's outcome; the window plus time to join. */
  outcome(id: string, timeoutMs: number): Promise<Recording>;
  fileOf(recording: Recording, mosqueId: string): string;
  close(): Promise<void>;
}

export async function startWindowHarness(env: Record<string, string> = {}): Promise<WindowHarness> {
  const t = await createTestApp({
    env: { RECORDER_RETRY_SECONDS: '1', RECORDER_RETRY_MAX_SECONDS: '2', STALL_TIMEOUT_SECONDS: '5', ...env },
  });
  const token = await t.login();
  const details = async (id: string) => {
    const response = await t.request({ method: 'GET', url: `/api/instances/${id}`, token });
    if (response.statusCode !== 200) throw new Error(`${id}: ${response.statusCode} ${response.body}`);
    return response.json<{ data: InstanceDetails }>().data;
  };
  return {
    t,
    details,
    launch: async (url, duration, mosqueId) => {
      // Launches name a mosque that exists (the server refuses unknown ids).
      const mosque = await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { mosque_id: mosqueId, name: `Mosque ${mosqueId}`, languages: ['en'] },
      });
      expect([201, 409], mosque.body).toContain(mosque.statusCode);
      const launchedAt = Date.now();
      const response = await t.request({
        method: 'POST',
        url: '/api/instances/launch',
        token,
        payload: { configs: [{ url, duration, width: 320, height: 240, mosque_id: mosqueId }], max_workers: 1 },
      });
      expect(response.statusCode, response.body).toBe(200);
      return { id: response.json<{ data: { instances: { id: string }[] } }>().data.instances[0].id, launchedAt };
    },
    outcome: (id, timeoutMs) =>
      waitFor(
        async () => {
          const recording = (await details(id)).recording;
          return recording && recording.status !== 'recording' ? recording : undefined;
        },
        `${id} to end its window`,
        timeoutMs,
      ),
    fileOf: (recording, mosqueId) => path.join(t.config.dataDir, 'recordings', mosqueId, recording.file_name ?? ''),
    close: async () => {
      killRecorders(t.config.dataDir);
      await t.close();
    },
  };
}

/** Seconds from the window start (the recording's started_at, server clock) to an instant of a gap. */
export const atSecond = (recording: Recording, instant: string) =>
  (Date.parse(instant) - Date.parse(recording.started_at)) / 1000;

/**
 * The joined file plays (decodes without an error) and lasts what the recording says it covers.
 * `backlogSeconds`: how long a source that came back on the air published before the reader was back
 * on it; the reader fetches those segments from the playlist at once, and coverage (measured on the
 * wall clock from the reader's return) does not count them.
 */
export async function expectPlayableFile(file: string, recording: Recording, backlogSeconds = 0): Promise<void> {
  const probe = await ffprobe(file);
  expect(probe).toMatchObject({ width: 320, height: 240 });
  // A reconnected or relaunched reader starts a few HLS segments behind the live edge, so the file may
  // repeat a few seconds that coverage (measured on the wall clock) counts once.
  const allowed = 6 + backlogSeconds;
  expect(
    Math.abs(probe.duration - (recording.covered_seconds ?? 0)),
    `file ${probe.duration} s, covered ${recording.covered_seconds} s, allowed ${allowed.toFixed(1)} s`,
  ).toBeLessThanOrEqual(allowed);
  expect(await decodesCleanly(file)).toBe(true);
  expect(recording.download_url).toBe(`/api/recordings/${recording.id}/media?download=1`);
}
