import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordingGap } from '../../contract/instances';
import { killRecorders } from '../../testkit/capture';
import { cpuLimit, type CpuLimit } from '../../testkit/cpu-limit';
import { startFidelityOrigin, type FidelityOrigin } from '../../testkit/fidelity-origin';
import { compareWithTruth, readFrameIndices } from '../../testkit/frame-decoder';
import { pause, waitFor } from '../../testkit/wait';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';
import { contentFileOf } from '../../recorder/protocol';

const DURATION = 40;
/** ffmpeg's share of one CPU: a 320x180 to 640x360 transcode needs about 14% to keep up on this machine. */
const FFMPEG_CPU_PERCENT = 4;
/** RECORDER_OVERLOAD_SECONDS: three segments of the stream behind. */
const OVERLOAD_SECONDS = 6;

interface Details {
  state: string;
  recording: {
    status: string;
    reason: string | null;
    started_at: string;
    gaps: RecordingGap[];
  } | null;
}

/**
 * A transcode starved of CPU under the real server: the recorder's ffmpeg (and only it) runs in a
 * cgroup held at 4% of a CPU for the window, well below real time, while the stream's origin lists
 * every segment. The recorder keeps up with the playlist, lets segments go past its bound, and says
 * so: every second the recording lacks is a `recorder_overloaded` gap where it was on the air, with
 * ffmpeg's speed, and nothing is put down to the stream (no `stream_dropped`, no stall).
 */
describe('a recorder whose transcode is starved of CPU', () => {
  const dataDir = temporaryDir('overload');
  let limit: CpuLimit | undefined;
  let source: FidelityOrigin | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    limit?.lift();
    await server?.stop();
    killRecorders(dataDir);
    await source?.close();
    // The group goes once the last ffmpeg in it has exited.
    await limit?.remove();
  });

  it('reports what it lost as recorder_overloaded, never as the stream dropping', async () => {
    limit = cpuLimit(`capture-overload-${process.pid}`, FFMPEG_CPU_PERCENT);
    const bin = temporaryDir('starved-ffmpeg');
    const ffmpeg = path.join(bin, 'ffmpeg');
    fs.writeFileSync(ffmpeg, `#!/bin/sh\n${limit.joinThenExec(process.env.FFMPEG_PATH ?? 'ffmpeg')}\n`, {
      mode: 0o755,
    });
    // On the air for 10 s already, a sliding playlist of 12 s: no fault, every segment listed for 12 s.
    source = await startFidelityOrigin({ minutes: 2, prePublishSegments: 5 });
    server = await spawnServer({
      dataDir,
      env: { FFMPEG_PATH: ffmpeg, RECORDER_OVERLOAD_SECONDS: String(OVERLOAD_SECONDS) },
    });
    const running = server;
    const token = await running.login();
    await running.request('POST', '/api/config/mosques', {
      token,
      body: { mosque_id: 'overload01', name: 'Mosque overload01', languages: ['en'] },
    });
    const launched = await running.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
      token,
      // Twice the source's frame size: transcoded.
      body: {
        configs: [{ url: source.url, duration: DURATION, width: 640, height: 360, mosque_id: 'overload01' }],
        max_workers: 1,
      },
    });
    expect(launched.status, launched.text).toBe(200);
    const id = launched.body.data.instances[0].id;
    const details = async () =>
      (await running.request<{ data: Details }>('GET', `/api/instances/${id}`, { token })).body.data;
    const { recording } = await waitFor(
      async () => ((await details()).recording ? details() : undefined),
      'a recording',
    );
    // Starved for the window; then ffmpeg works off what waits for it at once, as on a machine whose load passed.
    await pause(Math.max(0, Date.parse(recording?.started_at ?? '') + DURATION * 1000 - Date.now()));
    limit.lift();
    const done = await waitFor(
      async () => {
        const now = await details();
        return now.recording && now.recording.status !== 'recording' ? now.recording : undefined;
      },
      'the recording to end',
      90_000,
    );

    const overloaded = done.gaps.filter((gap) => gap.cause === 'recorder_overloaded');
    expect(overloaded.length, JSON.stringify(done.gaps)).toBeGreaterThan(0);
    // Nothing is put down to the stream, which listed every segment: every gap is ours.
    expect(done.gaps.filter((gap) => gap.cause !== 'recorder_overloaded' && gap.cause !== 'recorder_late')).toEqual([]);
    for (const gap of overloaded) {
      expect(gap.reason).toMatch(
        /^Recorder overloaded on \S+ \(ffmpeg (at 0\.\d\dx real time|below real time), \d+ s behind the stream\)$/,
      );
      expect(gap.content_lost_seconds).toBeCloseTo((Date.parse(gap.end) - Date.parse(gap.start)) / 1000, 1);
    }
    expect(done.status).toBe('partial');
    expect(done.reason).toMatch(/Recorder overloaded/);
    // One alarm, naming the machine, settled by the recording's end (its outcome tells the rest); no stall.
    const alarms = (
      await running.request<{ data: { alarms: { kind: string; message: string; resolved_at: string | null }[] } }>(
        'GET',
        '/api/alarms?status=all',
        { token },
      )
    ).body.data.alarms;
    expect(alarms.filter((alarm) => alarm.kind === 'recorder_overloaded')).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^Mosque overload01: Recorder overloaded on \S+ /) }),
    ]);
    expect(alarms.find((alarm) => alarm.kind === 'recorder_overloaded')?.resolved_at).not.toBeNull();
    expect(alarms.map((alarm) => alarm.kind)).not.toContain('stall');

    // The gaps tell the truth: what the file lacks of what the stream offered is where they say, as long as they say.
    const files = fs.readdirSync(path.join(dataDir, 'recordings', 'overload01')).sort();
    // One recording: its file, and its content readings beside it.
    expect(files).toEqual([files[0], contentFileOf(files[0])]);
    const from = Date.parse(done.started_at);
    const fidelity = compareWithTruth(
      await readFrameIndices(path.join(dataDir, 'recordings', 'overload01', files[0])),
      source.window(from, from + DURATION * 1000),
    );
    expect(fidelity.repeatedSeconds).toBe(0);
    const reported = overloaded.reduce((sum, gap) => sum + gap.content_lost_seconds, 0);
    expect(Math.abs(fidelity.lostByUsSeconds - reported), JSON.stringify(fidelity.losses)).toBeLessThanOrEqual(2);
    for (const loss of fidelity.losses.filter((l) => l.seconds >= 1)) {
      const inside = overloaded.some(
        (gap) => loss.broadcastFrom >= Date.parse(gap.start) - 2000 && loss.broadcastTo <= Date.parse(gap.end) + 2000,
      );
      expect(inside, `${JSON.stringify(loss)} lies in a recorder_overloaded gap`).toBe(true);
    }
  });
});
