import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MediaSegment } from '../../../recorder/hls-playlist';
import type { LetGo } from '../../../recorder/hls-reader';
import { mpegTsCodecs } from '../../../recorder/mpegts-codecs';
import { FedRuns } from '../../../recorder/recorder-hls';
import { localFolderSink, PieceStore } from '../../../recorder/recorder-pieces';
import { DEFAULT_RECORDER_SETTINGS, type RecorderConfig, type RunRecord } from '../../../recorder/recorder-state';
import { readFrameIndices } from '../../../testkit/frame-decoder';
import { waitFor } from '../../../testkit/wait';
import { FRAME_CODE, numberedStream } from '../../../testkit/numbered-stream';

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fed-runs-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const stream = numberedStream(1).segments;
const bytesOf = (file: string) => new Uint8Array(fs.readFileSync(file));

/** The segment's content with other timestamps (an encoder that restarted, or a spliced source): -c copy. */
function shifted(file: string, seconds: number): Uint8Array {
  const out = path.join(work, `shifted-${path.basename(file)}`);
  execFileSync(FFMPEG, ['-v', 'error', '-y', '-i', file, '-c', 'copy', '-output_ts_offset', String(seconds), out]);
  return bytesOf(out);
}

/** The segment's content at another frame size. */
function resized(file: string): Uint8Array {
  const out = path.join(work, `resized-${path.basename(file)}`);
  execFileSync(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-i',
    file,
    '-vf',
    'scale=160:90',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'copy',
    out,
  ]);
  return bytesOf(out);
}

const segment = (sequence: number, discontinuity: boolean): MediaSegment => ({
  sequence,
  uri: `http://127.0.0.1/${sequence}.ts`,
  duration: 2,
  discontinuity,
  programTime: null,
});

function fedRuns(
  folder: string,
  settings = DEFAULT_RECORDER_SETTINGS,
  now = () => new Date().toISOString(),
): {
  runs: RunRecord[];
  sink: FedRuns;
  /** Writes a segment, its ledger's part left out. */
  write(segment: MediaSegment, bytes: Uint8Array, continuous: boolean): Promise<number | LetGo>;
  pieces: PieceStore;
  log: string[];
  ffmpegPid: () => number | null;
} {
  let ffmpegPid: number | null = null;
  const runs: RunRecord[] = [];
  const log: string[] = [];
  const pieces = new PieceStore(folder, localFolderSink);
  const config = {
    ffmpegPath: FFMPEG,
    width: FRAME_CODE.width,
    height: FRAME_CODE.height,
    sourceAsIs: true,
    settings,
  } as RecorderConfig;
  const sink = new FedRuns({
    config,
    pieces,
    measure: () => false,
    newRun: () => {
      const run: RunRecord = {
        index: runs.length + 1,
        startedAt: new Date().toISOString(),
        firstMediaAt: null,
        lastMediaAt: null,
        endedAt: null,
        endReason: null,
        error: null,
        mediaSeconds: 0,
        bytes: 0,
      };
      runs.push(run);
      return run;
    },
    log: (_source, line) => log.push(line),
    ffmpegChanged: (pid) => (ffmpegPid = pid),
    mediaFlowed: () => undefined,
    storageFailed: (reason) => {
      throw new Error(reason);
    },
    now,
    host: 'recorder-7',
  });
  const write = (segment: MediaSegment, bytes: Uint8Array, continuous: boolean) =>
    sink.write(segment, bytes, continuous, () => undefined);
  return { runs, sink, write, pieces, log, ffmpegPid: () => ffmpegPid };
}

/** The first run's pieces joined in order, read back frame by frame. */
async function framesOfFirstRun(folder: string): Promise<(number | null)[]> {
  const joined = path.join(work, `${path.basename(folder)}-run-1.ts`);
  const names = fs
    .readdirSync(folder)
    .filter((name) => name.startsWith('run-0001-') && name.endsWith('.ts'))
    .sort();
  fs.writeFileSync(joined, Buffer.concat(names.map((name) => fs.readFileSync(path.join(folder, name)))));
  return readFrameIndices(joined);
}

describe('an HLS capture whose ffmpeg falls behind', () => {
  it('takes every segment while ffmpeg takes nothing, and ffmpeg records them all in order once it goes on', async () => {
    const folder = path.join(work, 'stopped');
    const { runs, sink, write, ffmpegPid } = fedRuns(folder);
    await write(segment(0, false), bytesOf(stream[0].file), true);
    const pid = ffmpegPid() as number;
    process.kill(pid, 'SIGSTOP');
    try {
      // Ten segments, several times what the pipe to ffmpeg holds: none of the writes waits for ffmpeg.
      for (let i = 1; i <= 10; i++) await write(segment(i, false), bytesOf(stream[i].file), true);
      expect(fs.statSync(path.join(folder, 'run-0001.queue')).size).toBeGreaterThan(0);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await sink.close();
    expect(runs).toHaveLength(1);
    expect(runs[0].error).toBeNull();
    expect(fs.existsSync(path.join(folder, 'run-0001.queue'))).toBe(false);
    expect(await framesOfFirstRun(folder)).toEqual(Array.from({ length: stream[10].lastFrame + 1 }, (_, i) => i));
  });

  it('has the ledger keep a segment before any byte of it reaches ffmpeg or its queue', async () => {
    // A recorder killed between the two must find its ledger ahead of the recording (recovery trims it to
    // the pieces), not behind it: a segment the ledger missed is fetched again and recorded twice.
    const folder = path.join(work, 'ledger-first');
    const { sink, write, ffmpegPid } = fedRuns(folder);
    await write(segment(0, false), bytesOf(stream[0].file), true);
    const pid = ffmpegPid() as number;
    process.kill(pid, 'SIGSTOP');
    const queue = path.join(folder, 'run-0001.queue');
    const queuedWhenKept: number[] = [];
    const queuedAfter: number[] = [];
    try {
      for (let i = 1; i <= 6; i++) {
        await sink.write(segment(i, false), bytesOf(stream[i].file), true, (run) => {
          expect(run).toBe(1);
          queuedWhenKept.push(fs.statSync(queue).size);
        });
        queuedAfter.push(fs.statSync(queue).size);
      }
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await sink.close();
    // ffmpeg took nothing, so the later segments went to its queue, each only after the ledger kept it.
    expect(queuedAfter.at(-1)).toBeGreaterThan(0);
    expect(queuedWhenKept).toEqual([0, ...queuedAfter.slice(0, -1)]);
  });

  it('keeps a burst of segments past the bound while ffmpeg works them off (a DVR list catching up)', async () => {
    const folder = path.join(work, 'burst');
    const { runs, sink, write, log } = fedRuns(folder, { ...DEFAULT_RECORDER_SETTINGS, overloadBacklogSeconds: 10 });
    // Ten segments (20 s) at once, as a playlist lists them after a stall: ffmpeg's speed is not known yet.
    const answers: (number | { overloaded: string })[] = [];
    for (let i = 0; i <= 9; i++) answers.push(await write(segment(i, false), bytesOf(stream[i].file), true));
    await sink.close();
    expect(answers).toEqual(Array.from({ length: 10 }, () => 1));
    expect(log.filter((line) => line.startsWith('Recorder overloaded'))).toEqual([]);
    expect(runs).toHaveLength(1);
    expect(await framesOfFirstRun(folder)).toEqual(Array.from({ length: stream[9].lastFrame + 1 }, (_, i) => i));
  });

  it('lets new segments go once ffmpeg is the bound behind and slower than the stream, until it worked half of it off', async () => {
    const capture = await stoppedAtTheBound('overloaded');
    const { folder, runs, sink, log, take } = capture;
    const frames = (from: number, to: number) =>
      Array.from({ length: stream[to].lastFrame - stream[from].firstFrame + 1 }, (_, i) => stream[from].firstFrame + i);
    try {
      // 6 s on, ffmpeg has taken nothing: 6 and 7 are let go.
      capture.moveClock(6000);
      for (let i = 6; i <= 7; i++) capture.answers.push(await take(i));
    } finally {
      capture.resume();
    }
    expect(capture.answers.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
    expect(capture.answers.slice(5)).toEqual([
      {
        overloaded: expect.stringMatching(
          /^Recorder overloaded on recorder-7 \(ffmpeg at 0\.\d\dx real time, 10 s behind the stream\)$/,
        ),
      },
      { overloaded: expect.stringMatching(/^Recorder overloaded/) },
    ]);
    // Once it has worked its queue off (the file is emptied), segments go to the same run again.
    const queue = path.join(folder, 'run-0001.queue');
    await waitFor(() => fs.statSync(queue).size === 0, 'ffmpeg to take its queue', 20_000);
    for (let i = 8; i <= 9; i++) expect(await take(i)).toBe(1);
    await sink.close();
    expect(runs).toHaveLength(1);
    expect(runs[0].error).toBeNull();
    expect(log.filter((line) => line.startsWith('Recorder overloaded'))).toHaveLength(1);
    expect(log.some((line) => /segments go to it again/.test(line))).toBe(true);
    // What was let go is not in the recording; everything else is, once, in order.
    expect(await framesOfFirstRun(folder)).toEqual([...frames(0, 5), ...frames(8, 9)]);
  });

  it('gives segments to ffmpeg again as soon as it goes faster than the stream, half the bound or not', async () => {
    // A machine whose load passed: ffmpeg works off its backlog. Letting segments go until half of it
    // was worked off lost what bare ffmpeg would have kept, for a reason that read "ffmpeg at 1.05x".
    const capture = await stoppedAtTheBound('catching-up');
    const { runs, sink, log, take } = capture;
    try {
      capture.moveClock(6000);
      capture.answers.push(await take(6));
      // Two seconds on, ffmpeg has reported 12 s more media written: its backlog, still on disk, is the
      // bound (the test holds ffmpeg stopped, so its report stands), and it now goes faster than the stream.
      capture.moveClock(8000);
      runs[0].mediaSeconds += 12;
      capture.answers.push(await take(7));
    } finally {
      capture.resume();
    }
    await sink.close();
    expect(capture.answers).toEqual([1, 1, 1, 1, 1, { overloaded: expect.stringMatching(/^Recorder overloaded/) }, 1]);
    expect(log).toContainEqual(
      expect.stringMatching(
        /^ffmpeg is 10 s behind and catching up \(at 1\.\d\dx real time\): segments go to it again$/,
      ),
    );
    expect(runs).toHaveLength(1);
    expect(runs[0].error).toBeNull();
  });
});

/**
 * A capture with a bound of 10 s whose ffmpeg (stopped after segment 0) has taken nothing of segments
 * 1-5: the bound waits in its queue. The recorder's clock moves on by hand (`moveClock`) to show ffmpeg
 * taking nothing meanwhile; `resume` lets ffmpeg go on.
 */
async function stoppedAtTheBound(name: string) {
  const folder = path.join(work, name);
  let aheadMs = 0;
  const capture = fedRuns(folder, { ...DEFAULT_RECORDER_SETTINGS, overloadBacklogSeconds: 10 }, () =>
    new Date(Date.now() + aheadMs).toISOString(),
  );
  const take = (i: number) => capture.write(segment(i, false), bytesOf(stream[i].file), true);
  await take(0);
  const pid = capture.ffmpegPid() as number;
  process.kill(pid, 'SIGSTOP');
  const answers: (number | { overloaded: string })[] = [];
  try {
    for (let i = 1; i <= 5; i++) answers.push(await take(i));
  } catch (error) {
    process.kill(pid, 'SIGCONT');
    throw error;
  }
  return {
    ...capture,
    folder,
    take,
    answers,
    moveClock: (ms: number) => (aheadMs = ms),
    resume: () => process.kill(pid, 'SIGCONT'),
  };
}

describe('an HLS capture across a discontinuity', () => {
  it('reads what a segment carries from its own tables: streams, codecs, frame size, sample rate', () => {
    const codecs = mpegTsCodecs(bytesOf(stream[0].file));
    expect(codecs).toMatch(new RegExp(`h264/\\d+/1/8/8/${FRAME_CODE.width}x${FRAME_CODE.height}`));
    expect(codecs).toMatch(/aac\/1\/4\/\d/); // 44.1 kHz is ADTS rate index 4
    expect(mpegTsCodecs(shifted(stream[1].file, 1000))).toBe(codecs);
    expect(mpegTsCodecs(resized(stream[1].file))).toMatch(/160x90/);
    expect(mpegTsCodecs(new TextEncoder().encode('<html>404</html>'))).toBeNull();
  });

  it('goes on in the same ffmpeg run when only the timestamps jump, and starts a new one when the frame size changes', async () => {
    const folder = path.join(work, 'pieces');
    const { runs, sink, write, pieces, log } = fedRuns(folder);
    await write(segment(10, false), bytesOf(stream[0].file), true);
    await write(segment(11, false), bytesOf(stream[1].file), true);
    // The encoder's timestamps jump 1000 s ahead behind a discontinuity tag; the programme goes on.
    await write(segment(12, true), shifted(stream[2].file, 1000), false);
    await write(segment(13, false), shifted(stream[3].file, 1000), true);
    expect(runs).toHaveLength(1);
    await write(segment(14, true), resized(stream[4].file), false);
    expect(runs).toHaveLength(2);
    await sink.close();
    expect(log.some((line) => /discontinuity at segment 12, the same streams/.test(line))).toBe(true);
    expect(log.some((line) => /discontinuity at segment 14, the streams changed/.test(line))).toBe(true);

    // The first run holds the four segments' frames once each, in order, and lasts what they last.
    pieces.measureAll();
    expect(pieces.secondsOf(1)).toBeCloseTo(8, 0);
    expect(await framesOfFirstRun(folder)).toEqual(Array.from({ length: stream[3].lastFrame + 1 }, (_, i) => i));
  });
});
