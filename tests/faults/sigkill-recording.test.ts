import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, ffprobe, instancePids, killRecorders } from '../../testkit/capture';
import { startFidelityOrigin, type FidelityOrigin } from '../../testkit/fidelity-origin';
import { compareWithTruth, readFrameIndices } from '../../testkit/frame-decoder';
import { FRAME_CODE } from '../../testkit/numbered-stream';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';
import { pause, waitFor } from '../../testkit/wait';
import { contentFileOf } from '../../recorder/protocol';

const DURATION = 30;

interface Details {
  id: string;
  state: string;
  state_reason: string | null;
  recording: {
    id: string;
    status: string;
    reason: string | null;
    bytes: number;
    duration_seconds: number | null;
    started_at: string;
  } | null;
}

/**
 * A recording running on the local driver when the server is SIGKILLed: the recorder (its own process
 * group) keeps recording, the restarted server re-adopts it under the same instance, and the recording
 * is captured once, over its whole window: read back frame by frame from the fidelity lab's numbered
 * stream, it lacks at most 2 s of what the stream offered and repeats nothing.
 *
 * Recordings that fall due while the server is down (launched late or marked missed per the
 * scheduler's policy, never twice) are proven by tests/server/scheduler/restart.test.ts, which kills
 * the real server in the middle of a burst of due jobs; this file does not repeat it.
 */
describe('SIGKILL with a recording running', () => {
  const dataDir = temporaryDir('recording');
  let source: FidelityOrigin | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.kill('SIGKILL');
    killRecorders(dataDir);
    await source?.close();
  });

  it('survives the server, is re-adopted and is captured once', async () => {
    // On the air for 20 s already, listing the last 120 s (a DVR window).
    source = await startFidelityOrigin({ minutes: 2, dvrSegments: 60, prePublishSegments: 10 });
    server = await spawnServer({ dataDir });
    const token = await server.login();
    // A launch must name a mosque that exists.
    for (const mosque_id of ['sigkillt01'])
      await server.request('POST', '/api/config/mosques', {
        token,
        body: { mosque_id, name: `Mosque ${mosque_id}`, languages: ['en'] },
      });
    const launched = await server.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
      token,
      body: {
        configs: [
          {
            url: source.url,
            duration: DURATION,
            width: FRAME_CODE.width,
            height: FRAME_CODE.height,
            mosque_id: 'sigkillt01',
          },
        ],
        max_workers: 1,
      },
    });
    expect(launched.status, launched.text).toBe(200);
    const id = launched.body.data.instances[0].id;
    const first = server;
    await waitFor(
      async () =>
        (await first.request<{ data: Details }>('GET', `/api/instances/${id}`, { token })).body.data.state ===
        'running',
      'media to flow',
      30_000,
    );

    const { recorder, ffmpeg } = instancePids(dataDir, id);
    expect(alive(recorder) && alive(ffmpeg)).toBe(true);
    await first.kill('SIGKILL');
    expect(first.running()).toBe(false);
    // Down for a while: what happens meanwhile is the recorder's alone. Real time: the live stream
    // moves on, and the recording must hold those seconds without its server.
    await pause(5000);
    expect(alive(recorder), 'the recorder outlives the server').toBe(true);
    expect(alive(ffmpeg), 'ffmpeg outlives the server').toBe(true);

    server = await spawnServer({ dataDir });
    const second = server;
    const done = await waitFor(
      async () => {
        const details = (await second.request<{ data: Details }>('GET', `/api/instances/${id}`, { token })).body.data;
        return details.recording && details.recording.status !== 'recording' ? details : undefined;
      },
      'the recording to end',
      DURATION * 1000 + 45_000,
    );
    expect(done.state).toBe('stopped');
    expect(done.recording).toMatchObject({ status: 'captured', reason: null, expected_seconds: DURATION, gaps: [] });
    expect(done.recording?.duration_seconds).toBeGreaterThanOrEqual(DURATION - 1.5);

    // Re-adopted, not adopted anew or launched again: one instance, one recording, one file.
    const instances = await second.request<{ data: { id: string }[] }>('GET', '/api/instances/', { token });
    expect(instances.body.data.map((i) => i.id)).toEqual([id]);
    const recordings = await second.request<{ data: { recordings: { id: string }[] } }>(
      'GET',
      '/api/recordings?mosque_id=sigkillt01',
      { token },
    );
    expect(recordings.body.data.recordings.map((r) => r.id)).toEqual([done.recording?.id]);
    const files = fs.readdirSync(path.join(dataDir, 'recordings', 'sigkillt01')).sort();
    // One recording: its file, and its content readings beside it.
    expect(files).toEqual([files[0], contentFileOf(files[0])]);
    const file = path.join(dataDir, 'recordings', 'sigkillt01', files[0]);
    expect((await ffprobe(file)).duration).toBeGreaterThanOrEqual(DURATION - 1.5);
    const from = Date.parse(done.recording?.started_at ?? '');
    const fidelity = compareWithTruth(await readFrameIndices(file), source.window(from, from + DURATION * 1000));
    expect(fidelity.lostByUsSeconds, JSON.stringify(fidelity.losses)).toBeLessThanOrEqual(2);
    expect(fidelity.repeatedSeconds).toBe(0);
    expect(fs.readdirSync(path.join(dataDir, 'instances')).filter((name) => name.startsWith('cap-'))).toEqual([id]);
    expect(alive(recorder)).toBe(false);

    await second.stop();
    server = undefined;
  });
});
