import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFidelityOrigin, type FidelityOrigin } from '../../testkit/fidelity-origin';
import { compareWithTruth, readFrameIndices } from '../../testkit/frame-decoder';
import { FRAME_CODE } from '../../testkit/numbered-stream';
import { recorderProcess, type RecorderProcess } from '../../testkit/recorder-process';
import { scaled } from '../../testkit/time-scale';
import { pause, waitFor } from '../../testkit/wait';

const WINDOW_SECONDS = 60;
/** When the recorder's ffmpeg is stopped, seconds into the window. */
const HELD_FROM_SECONDS = 12;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * An HLS copy killed while segments wait for its ffmpeg: the recorder's ffmpeg is stopped (SIGSTOP),
 * so the segments the ledger kept queue on disk, and the recorder is then killed (SIGKILL, as a
 * crash). The ledger is ahead of the recording: the recorder started again on its folder must forget
 * what the pieces do not hold and fetch it again while the DVR playlist lists it, so that the
 * recording loses nothing and repeats nothing.
 */
describe('an HLS recorder killed while segments wait for its ffmpeg', () => {
  let ffmpeg: number | undefined;
  let origin: FidelityOrigin | undefined;
  let recorder: RecorderProcess | undefined;

  afterAll(async () => {
    if (ffmpeg && alive(ffmpeg)) process.kill(ffmpeg, 'SIGCONT');
    await recorder?.kill();
    recorder?.remove();
    await origin?.close();
  });

  it(
    'fetches again what the ledger kept and ffmpeg never got: nothing lost, nothing twice',
    { timeout: scaled(240_000) },
    async () => {
      origin = await startFidelityOrigin({ minutes: 3, prePublishSegments: 10, dvrSegments: 60 });
      recorder = recorderProcess({
        url: origin.url,
        seconds: WINDOW_SECONDS,
        width: FRAME_CODE.width,
        height: FRAME_CODE.height,
        sourceAsIs: true,
        // No segment is let go for the backlog: all of it must wait for ffmpeg.
        settings: { overloadBacklogSeconds: 600 },
      });
      recorder.start();
      const windowStart = Date.parse(recorder.config.windowStart);
      await pause(windowStart + HELD_FROM_SECONDS * 1000 - Date.now());
      ffmpeg = recorder.state()?.ffmpegPid ?? undefined;
      expect(ffmpeg, recorder.log()).toBeTypeOf('number');
      process.kill(ffmpeg as number, 'SIGSTOP');

      // Segments the ledger kept wait on disk for the stopped ffmpeg.
      const queued = () => {
        const parts = fs.readdirSync(recorder?.dir ?? '').find((name) => name.endsWith('.parts'));
        const folder = path.join(recorder?.dir ?? '', parts ?? '');
        return parts
          ? fs
              .readdirSync(folder)
              .some((name) => name.endsWith('.queue') && fs.statSync(path.join(folder, name)).size > 0)
          : false;
      };
      await waitFor(queued, 'segments to queue for the stopped ffmpeg', scaled(20_000));
      await pause(4000);
      await recorder.kill();
      // ffmpeg, its input ended, writes out what it had read once it runs again.
      process.kill(ffmpeg as number, 'SIGCONT');
      await waitFor(() => !alive(ffmpeg as number), 'the killed run’s ffmpeg to finish', scaled(30_000));
      await pause(3000);
      recorder.start();
      const state = await recorder.finished(scaled(120_000));

      const seen = `${JSON.stringify(state.coverage?.gaps)}\n${recorder.log()}`;
      expect(
        state.runs.some((run) => /^Recorder was down \(\d+ segment\(s\) to fetch again\)$/.test(run.endReason ?? '')),
        seen,
      ).toBe(true);
      const indices = await readFrameIndices(recorder.config.outputPath);
      const report = compareWithTruth(indices, origin.window(windowStart, Date.parse(recorder.config.windowEnd)));
      expect(report.repeatedSeconds, seen).toBe(0);
      expect(report.reorderedSeconds, seen).toBe(0);
      expect(report.lostByUsSeconds, seen).toBeLessThanOrEqual(1);
      expect(state.outcome?.status, seen).toBe('captured');
    },
  );
});
