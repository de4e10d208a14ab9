import { afterAll, describe, expect, it } from 'vitest';
import { probeStreams } from '../../../recorder/source-fit';
import { FFPROBE, ffprobe } from '../../../testkit/capture';
import { startDashOrigin, type DashOrigin } from '../../../testkit/dash-origin';
import { startRadioMount, type RadioMount } from '../../../testkit/radio-mount';
import { recorderProcess, type RecorderProcess } from '../../../testkit/recorder-process';
import { scaled } from '../../../testkit/time-scale';
import { pause } from '../../../testkit/wait';

// PostgreSQL pass: skipped: recorder processes against live loopback streams, no database

// The fixed waits here are real time: a radio mount's time off the air is seconds of a live broadcast.

/**
 * Streams ffmpeg reads itself, each live on loopback, each with a real recorder process: an
 * Icecast-like radio mount without a file extension, on the air before the window opens, that goes
 * off the air for 20 s in the middle (recorded without yt-dlp, its MP3 kept as it is, the hole placed
 * where the mount was off the air from ffmpeg's own output time against the clock, not at the window's
 * start); and a live DASH stream from ffmpeg's dash muxer, already what the recording is made of.
 */
describe('streams ffmpeg reads itself', () => {
  let mount: RadioMount | undefined;
  let dash: DashOrigin | undefined;
  const recorders: RecorderProcess[] = [];
  afterAll(async () => {
    for (const recorder of recorders) {
      await recorder.kill();
      recorder.remove();
    }
    await mount?.close();
    await dash?.close();
  });

  it.concurrent(
    'a radio mount: its MP3 kept as it is, and drops of 20 s and 3 s placed within 3 s of where they happened',
    { timeout: scaled(120_000) },
    async () => {
      mount = await startRadioMount();
      await pause(3000); // on the air before the window opens
      const recorder = recorderProcess({
        url: mount.url,
        seconds: 50,
        width: 1280,
        height: 720,
        // No yt-dlp on this machine: the mount must be recognised by what it answers.
        ytDlpPath: '/nonexistent/yt-dlp',
        settings: { segmentSeconds: 2, dropRetrySeconds: 1 },
      });
      recorders.push(recorder);
      recorder.start();
      const windowStart = Date.parse(recorder.config.windowStart);
      await pause(windowStart + 15_000 - Date.now());
      const long = await mount.drop(20);
      // A short drop ffmpeg's own reconnect rides out inside one connection.
      await pause(windowStart + 40_000 - Date.now());
      const short = await mount.drop(3);
      const state = await recorder.finished(scaled(60_000));

      const at = (iso: string) => (Date.parse(iso) - windowStart) / 1000;
      const truths = [long, short].map((drop) => ({
        from: (drop.from - windowStart) / 1000,
        to: (drop.to - windowStart) / 1000,
      }));
      const gaps = state.coverage?.gaps ?? [];
      const log = recorder.log();
      expect(log, log).toMatch(/the stream holds audio mp3: recording it as it is/);
      expect(log).not.toMatch(/yt-dlp/);
      // Live from the first second: nothing is put down to a stream that was not on the air.
      expect(
        gaps.filter((g) => g.cause === 'not_live_yet'),
        JSON.stringify(gaps),
      ).toEqual([]);
      const dropped = gaps.filter((g) => g.cause === 'stream_dropped');
      const seen = JSON.stringify({ gaps, truths });
      expect(dropped, seen).toHaveLength(2);
      for (const [i, truth] of truths.entries()) {
        expect(Math.abs(at(dropped[i].start) - truth.from), seen).toBeLessThanOrEqual(3);
        expect(Math.abs(at(dropped[i].end) - truth.to), seen).toBeLessThanOrEqual(3);
      }
      expect(dropped[0].content_lost_seconds).toBeGreaterThanOrEqual(17);
      // Any other hole is our connection's few seconds at the start, with what it cost.
      for (const gap of gaps.filter((g) => !dropped.includes(g)))
        expect(gap, JSON.stringify(gaps)).toMatchObject({ cause: 'recorder_late', start: recorder.config.windowStart });
      expect(state.outcome?.status).toBe('partial');
      // Covered: the window less the time off the air and less our own late start, which is told as ours.
      const offAir = truths.reduce((sum, truth) => sum + truth.to - truth.from, 0);
      const late = gaps.filter((g) => !dropped.includes(g)).reduce((sum, g) => sum + g.content_lost_seconds, 0);
      expect(Math.abs((state.coverage?.coveredSeconds ?? 0) - (50 - offAir - late)), seen).toBeLessThanOrEqual(4);

      // The joined file: the stream's own MP3, no video, as long as the coverage says.
      const file = recorder.config.outputPath;
      const streams = await probeStreams(
        { ffprobePath: FFPROBE, width: 0, height: 0 },
        { url: file, inputOptions: [] },
      );
      expect(streams?.map((s) => `${s.codec_type} ${s.codec_name}`)).toEqual(['audio mp3']);
      // It holds the covered seconds, and beyond the window's edges at most a piece each side (the mount's
      // burst of what it played before the window opened, what ffmpeg wrote out at the window's end).
      const { duration } = await ffprobe(file);
      const covered = state.coverage?.coveredSeconds ?? 0;
      expect(duration).toBeGreaterThanOrEqual(covered - 0.5);
      expect(duration).toBeLessThanOrEqual(covered + 2 * 2);
    },
  );

  it.concurrent(
    'a live DASH stream already at the configured size: copied, and captured but for our connection’s first seconds',
    { timeout: scaled(90_000) },
    async () => {
      dash = await startDashOrigin(320, 240);
      const recorder = recorderProcess({ url: dash.url, seconds: 20, width: 320, height: 240 });
      recorders.push(recorder);
      recorder.start();
      const state = await recorder.finished(scaled(60_000));
      const log = recorder.log();
      expect(log, log).toMatch(/the stream holds video h264 320x240, audio aac: recording it as it is/);
      // The only hole allowed is our connection's first seconds (long on a busy machine), named as ours.
      const gaps = state.coverage?.gaps ?? [];
      for (const gap of gaps)
        expect(gap, JSON.stringify(gaps)).toMatchObject({
          cause: 'recorder_late',
          reason: /^Connecting to the stream/,
        });
      if (gaps.length === 0) expect(state.outcome?.status, JSON.stringify(state.coverage)).toBe('captured');
      // Measured to the window's end, though the outcome was written after the join.
      expect(state.measuredUntil).toBe(recorder.config.windowEnd);
      expect(state.coverage?.gaps.filter((g) => g.cause === 'not_live_yet')).toEqual([]);
      const streams = await probeStreams(
        { ffprobePath: FFPROBE, width: 0, height: 0 },
        { url: recorder.config.outputPath, inputOptions: [] },
      );
      expect(streams?.map((s) => `${s.codec_type} ${s.codec_name} ${s.width ?? ''}`)).toEqual([
        'video h264 320',
        'audio aac ',
      ]);
    },
  );
});
