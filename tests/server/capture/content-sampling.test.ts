import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  contentInputOptions,
  contentOutput,
  pictureEverySeconds,
  SOUND_SAMPLED_SECONDS,
} from '../../../recorder/content-filters';
import { ContentMeter } from '../../../recorder/content-meter';
import { contentProgramme } from '../../../testkit/content-programmes';

/** The picture stands still from 12 s to 36 s of a 64 s programme whose key frames come every second. */
const FROZEN = { fault: 'frozen' as const, from: 12, to: 36, seconds: 64 };
const WINDOW_START = Date.parse('2026-11-27T11:00:00Z');
const PICTURE_TIME = /^\[Parsed_blackframe_\d+ @ [^\]]+\] .*?\bt:([\d.]+)/;

/**
 * What real ffmpeg's measuring output finds in `input`, measured as a copying (`copies`) or transcoding
 * run measures at threshold `alarmSeconds`, read by the content meter: ffmpeg's log lines, the loudness
 * file and the meter's final summary.
 */
function measureContent(dir: string, input: string, copies: boolean, alarmSeconds: number) {
  const name = `${copies ? 'copying' : 'transcoding'}-${alarmSeconds}`;
  const loudnessFile = path.join(dir, `${name}.loudness`);
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'info'],
      ...contentInputOptions(copies),
      ...['-i', input],
      ...contentOutput(copies, loudnessFile, alarmSeconds),
    ],
    { encoding: 'utf8' },
  );
  expect(result.status, result.stderr).toBe(0);
  const lines = result.stderr.split('\n');
  const meter = new ContentMeter({
    file: path.join(dir, `${name}.jsonl`),
    windowStart: WINDOW_START,
    loudnessFileOf: () => loudnessFile,
    anchorOf: () => WINDOW_START,
    toServerIso: (ms) => new Date(ms).toISOString(),
    log: () => undefined,
  });
  for (const line of lines) meter.line(1, line);
  return { lines, loudnessFile, summary: meter.report(true) };
}

/**
 * A copying run looks at a picture every quarter of the alarm threshold, at most every 10 s
 * (content-filters.ts): real ffmpeg measuring the frozen programme as a copying run does, its
 * verdicts read by the content meter.
 */
describe('a copying run looks at one key frame every few seconds', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-sampling-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** What ffmpeg's measuring output said of the programme at threshold `alarmSeconds`. */
  const measure = (alarmSeconds: number) => {
    const { lines, summary } = measureContent(dir, contentProgramme(FROZEN), true, alarmSeconds);
    const pictures = lines.flatMap((line) => {
      const time = PICTURE_TIME.exec(line)?.[1];
      return time === undefined ? [] : [Number(time)];
    });
    return { pictures, summary };
  };

  it.each([
    { alarmSeconds: 120, every: 10 },
    { alarmSeconds: 8, every: 2 },
  ])(
    'at a threshold of $alarmSeconds s: a picture every $every s, the freeze timed within that',
    ({ alarmSeconds, every }) => {
      expect(pictureEverySeconds(alarmSeconds)).toBe(every);
      const { pictures, summary } = measure(alarmSeconds);
      expect(pictures.length).toBe(Math.ceil(FROZEN.seconds / every));
      for (const [i, t] of pictures.slice(1).entries()) {
        // Printed to the microsecond.
        const gap = Math.round((t - (pictures[i] as number)) * 1000) / 1000;
        expect(gap).toBeGreaterThanOrEqual(every);
        // The first key frame from then on: they come every second.
        expect(gap).toBeLessThan(every + 1);
      }
      // Timed from the first picture looked at that shows it to the last: each up to `every` inside the freeze.
      const frozen = FROZEN.to - FROZEN.from;
      expect(summary.frozenSeconds).toBeGreaterThan(frozen - 2 * every);
      expect(summary.frozenSeconds).toBeLessThanOrEqual(frozen);
      expect(summary.blackSeconds).toBe(0);
    },
  );
});

/**
 * An overloaded recorder lets segments go and hands ffmpeg the next one (recorder-hls.ts): the run's
 * timestamps jump, under the 10 s ffmpeg smooths over itself. Nothing was on the picture there, and the
 * pictures on either side differ: measured as a transcoding run measures, no second of it is frozen.
 */
describe('a transcoding run across a jump in its timestamps', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-jump-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('makes up no picture there, so finds nothing frozen', () => {
    const programme = contentProgramme(FROZEN);
    const ffmpeg = (...args: string[]) => {
      const result = spawnSync('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], {
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      return result.stderr;
    };
    // 0-10 s and 40-50 s of the programme (its picture moves there), the second 8 s of media later
    // than the first ends: stream copies, as the recorder's queue hands segments on.
    const before = path.join(dir, 'before.ts');
    const after = path.join(dir, 'after.ts');
    ffmpeg('-i', programme, '-t', '10', '-c', 'copy', before);
    ffmpeg('-ss', '40', '-i', programme, '-t', '10', '-c', 'copy', '-output_ts_offset', '18', after);
    const joined = path.join(dir, 'joined.ts');
    fs.writeFileSync(joined, Buffer.concat([fs.readFileSync(before), fs.readFileSync(after)]));
    expect(measureContent(dir, joined, false, 8).summary.frozenSeconds).toBe(0);
  });
});

/**
 * A copying run gives ebur128 four tenths of each second of sound, a transcoding run all of it
 * (content-filters.ts): real ffmpeg measuring the same sound both ways. A quiet tone with one loud
 * click (5 ms) in a part of a second a copying run does not measure, and a 6 s mute.
 */
describe('a copying run measures four tenths of each second of sound', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-sound-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const LOUDNESS_TIME = /pts_time:([\d.]+)/g;

  it("times a mute as a whole measure does, reads the same loudness, and its peak is every sample's", () => {
    const sound = path.join(dir, 'sound.ts');
    const tone = '0.1*sin(2*PI*440*t)*not(between(t,10,16))';
    const click = '0.8*sin(2*PI*1000*t)*between(t,5.6,5.605)';
    const made = spawnSync(
      'ffmpeg',
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi'],
        ...['-i', `aevalsrc=exprs='${tone}+${click}':s=48000:d=24`.replaceAll(',', '\\,')],
        ...['-c:a', 'aac', '-b:a', '128k', '-f', 'mpegts', sound],
      ],
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    const measured = (copies: boolean) => {
      const { loudnessFile, summary } = measureContent(dir, sound, copies, 8);
      const times = [...fs.readFileSync(loudnessFile, 'utf8').matchAll(LOUDNESS_TIME)].map((m) => Number(m[1]));
      return { summary, times };
    };
    const copying = measured(true);
    const whole = measured(false);

    // Readings only where the copying run measures: each starts inside the sampled part of its second
    // (or the last AAC frame begun there, 21 ms long).
    expect(copying.times.length).toBeGreaterThan(20 * 3);
    for (const t of copying.times) expect(t % 1).toBeLessThan(SOUND_SAMPLED_SECONDS + 0.022);
    expect(whole.times.some((t) => t % 1 > 0.5)).toBe(true);
    // The mute, 6 s: within a second of the whole measure's.
    expect(Math.abs(copying.summary.longestSilenceSeconds - whole.summary.longestSilenceSeconds)).toBeLessThan(1);
    expect(copying.summary.longestSilenceSeconds).toBeGreaterThan(4.5);
    expect(copying.summary.integratedLufs).not.toBeNull();
    expect(Math.abs((copying.summary.integratedLufs ?? 0) - (whole.summary.integratedLufs ?? 0))).toBeLessThan(0.5);
    // The click (0.8 of full scale) lies where a copying run's loudness never looks; its peak has it.
    expect(copying.summary.peakDbfs).toBeGreaterThan(-3);
    expect(copying.summary.peakDbfs).toBe(whole.summary.peakDbfs);
  });
});
