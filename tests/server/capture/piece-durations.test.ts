import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFfmpegArgs, FED_INPUT } from '../../../recorder/ffmpeg-args';
import { mpegTsSeconds } from '../../../recorder/mpegts-seconds';
import { localFolderSink, PieceStore, probeSeconds } from '../../../recorder/recorder-pieces';
import { DEFAULT_RECORDER_SETTINGS, type RecorderConfig } from '../../../recorder/recorder-state';
import { FFPROBE, startHlsSource, type HlsSource } from '../../../testkit/capture';
import { recorderProcess } from '../../../testkit/recorder-process';
import { scaled } from '../../../testkit/time-scale';

// PostgreSQL pass: skipped: real ffmpeg runs and one recorder process on a loopback stream, no database

/*
 * A piece's seconds come from its own timestamps, read in the recorder, never from an ffprobe per
 * piece: that process was most of a copying recorder's CPU. Each figure is checked against ffprobe's
 * (what the recorder used before, and what the concat join places each piece by), and a real
 * recorder against a counting ffprobe.
 */

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'piece-durations-'));
/** 10 s of 25 fps video with 48 kHz AAC (its audio frames do not line up with the video's). */
const source = path.join(work, 'source.ts');
const config = {
  width: 320,
  height: 180,
  settings: { ...DEFAULT_RECORDER_SETTINGS, segmentSeconds: 2 },
} as RecorderConfig;

beforeAll(async () => {
  await promisify(execFile)('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '10', '-c:v', 'libx264'],
    ...['-preset', 'ultrafast', '-g', '25', '-bf', '2', '-c:a', 'aac', '-f', 'mpegts', source],
  ]);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** One fed run of the recorder's ffmpeg over the source, into `folder`: its pieces and their list. */
async function fedRun(folder: string, copy: boolean): Promise<PieceStore> {
  const pieces = new PieceStore(folder, localFolderSink);
  pieces.prepare();
  const ffmpeg = spawn('ffmpeg', buildFfmpegArgs({ ...config, sourceAsIs: copy }, FED_INPUT, pieces.outputFor(1)), {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  ffmpeg.stdin.end(fs.readFileSync(source));
  await new Promise((resolve) => ffmpeg.once('exit', resolve));
  return pieces;
}

async function expectSecondsOfFfprobe(folder: string, measured: { name: string; seconds: number }[]) {
  for (const { name, seconds } of measured) {
    const probed = await probeSeconds(FFPROBE, path.join(folder, name));
    expect(seconds, name).toBeCloseTo(probed ?? Number.NaN, 3);
  }
}

describe("a piece's seconds", () => {
  it.each([
    ['copied', true],
    ['transcoded', false],
  ])('of each %s piece ffmpeg lists are those ffprobe finds', { timeout: scaled(60_000) }, async (kind, copy) => {
    const folder = path.join(work, kind);
    const pieces = await fedRun(folder, copy);
    pieces.collectClosed(1);
    const measured = pieces.measured();
    expect(measured.length).toBeGreaterThanOrEqual(4);
    expect(measured.map((p) => p.name)).toEqual(fs.readdirSync(folder).filter((name) => name.endsWith('.ts')));
    await expectSecondsOfFfprobe(folder, measured);
  });

  it(
    'of a piece no list names (a killed run, or fetched from the store) come from its timestamps',
    { timeout: scaled(60_000) },
    async () => {
      const listed = await fedRun(path.join(work, 'whole'), true);
      listed.collectClosed(1);
      const folder = path.join(work, 'unlisted');
      fs.mkdirSync(folder);
      // Run 2 has no list: whole pieces as the store returns them, the last one cut mid-write as a kill leaves it.
      const whole = listed.measured().map((p) => path.join(listed.folder, p.name));
      fs.copyFileSync(whole[0], path.join(folder, 'run-0002-00000.ts'));
      fs.copyFileSync(whole[1], path.join(folder, 'run-0002-00001.ts'));
      const cut = fs.readFileSync(whole[2]);
      fs.writeFileSync(path.join(folder, 'run-0002-00002.ts'), cut.subarray(0, Math.floor(cut.length * 0.6) + 77));
      fs.writeFileSync(path.join(folder, 'run-0002-00003.ts'), 'no media here');
      const pieces = new PieceStore(folder, localFolderSink);
      expect(pieces.unlistedOf(2)).toHaveLength(4);
      pieces.measureAll();
      const measured = pieces.measured();
      expect(measured.map((p) => p.name)).toEqual(['run-0002-00000.ts', 'run-0002-00001.ts', 'run-0002-00002.ts']);
      expect(measured[2].seconds).toBeLessThan(listed.measured()[2].seconds - 0.3);
      await expectSecondsOfFfprobe(folder, measured);
    },
  );

  it(
    'of a piece whose clock wraps inside it are its media, as ffprobe finds them',
    { timeout: scaled(30_000) },
    async () => {
      // PES timestamps count 33 bits of a 90 kHz clock: a stream's clock starts again every 26.5 hours.
      const wrapping = path.join(work, 'wrapping.ts');
      await promisify(execFile)('ffmpeg', [
        ...['-loglevel', 'error', '-i', source, '-t', '4', '-c', 'copy'],
        ...['-output_ts_offset', String(2 ** 33 / 90_000 - 2), '-f', 'mpegts', wrapping],
      ]);
      const probed = await probeSeconds(FFPROBE, wrapping);
      expect(probed).toBeGreaterThan(3.9);
      expect(mpegTsSeconds(fs.readFileSync(wrapping))).toBeCloseTo(probed ?? Number.NaN, 3);
    },
  );

  it('of audio alone are the frames it holds', { timeout: scaled(30_000) }, async () => {
    // ffprobe's own estimate of an audio-only MPEG-TS file falls short of its frames; the frames are the truth.
    const audio = path.join(work, 'audio.ts');
    await promisify(execFile)('ffmpeg', ['-loglevel', 'error', '-i', source, '-vn', '-c:a', 'copy', '-t', '3', audio]);
    const { stdout } = await promisify(execFile)(FFPROBE, [
      ...['-v', 'error', '-count_packets', '-select_streams', 'a:0'],
      ...['-show_entries', 'stream=nb_read_packets,sample_rate', '-of', 'json', audio],
    ]);
    const stream = (JSON.parse(stdout) as { streams: { nb_read_packets: string; sample_rate: string }[] }).streams[0];
    const frames = (Number(stream.nb_read_packets) * 1024) / Number(stream.sample_rate);
    expect(mpegTsSeconds(fs.readFileSync(audio))).toBeCloseTo(frames, 3);
  });
});

describe('a recorder', () => {
  let hls: HlsSource;
  beforeAll(async () => {
    hls = await startHlsSource();
  }, scaled(30_000));
  afterAll(async () => {
    await hls?.close();
  });

  it('runs ffprobe once, to check the source, however many pieces it writes', { timeout: scaled(90_000) }, async () => {
    // ffprobe itself, behind a script that notes each run.
    const runs = path.join(work, 'ffprobe-runs');
    const counting = path.join(work, 'ffprobe');
    fs.writeFileSync(counting, `#!/bin/sh\necho run >> '${runs}'\nexec '${FFPROBE}' "$@"\n`, { mode: 0o755 });
    // The source is H.264 and AAC at 320x240: after its one check the recorder copies it.
    const recorder = recorderProcess({
      url: hls.url,
      seconds: 12,
      width: 320,
      height: 240,
      ffprobePath: counting,
      settings: { segmentSeconds: 2 },
    });
    try {
      recorder.start();
      const state = await recorder.finished(scaled(60_000));
      expect(state.outcome?.status, recorder.log()).toBe('captured');
      expect(recorder.log()).toContain('recording it as it is');
      expect(fs.readFileSync(runs, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
      // Over 11 s joined from pieces of 2 s: at least six pieces were closed and measured.
      expect(await probeSeconds(FFPROBE, recorder.config.outputPath)).toBeGreaterThan(11);
    } finally {
      await recorder.kill();
      recorder.remove();
    }
  });
});
