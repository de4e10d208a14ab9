import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentMeter, readWindows } from '../../../recorder/content-meter';

/** What the measuring output of a run writes (content-filters.ts), at media time `t`: loudness into its file, the rest to stderr. */
const loudness = (t: number, momentary: number) =>
  `frame:${Math.round(t * 10)}    pts:${Math.round(t * 44100)}   pts_time:${t.toFixed(1)}\nlavfi.r128.M=${momentary.toFixed(3)}\n`;
const picture = (t: number, pblack: number) =>
  `[Parsed_blackframe_2 @ 0x6] frame:${t} pblack:${pblack} pts:${t} t:${t.toFixed(6)} type:P last_keyframe:0`;
const freeze = (edge: 'start' | 'end', t: number) => `[freezedetect @ 0x7] lavfi.freezedetect.freeze_${edge}: ${t}`;
const WINDOW_START = Date.parse('2026-11-27T11:00:00Z');

describe('the content meter reads what ffmpeg measured', () => {
  let dir: string;
  let meter: ContentMeter;
  const file = () => path.join(dir, 'content.jsonl');
  const loudnessFile = () => path.join(dir, 'run-0001.loudness');
  const make = () =>
    new ContentMeter({
      file: file(),
      windowStart: WINDOW_START,
      loudnessFileOf: () => loudnessFile(),
      anchorOf: () => WINDOW_START,
      toServerIso: (ms) => new Date(ms).toISOString(),
      log: () => undefined,
    });
  /** Feeds run 1 a loudness line every 100 ms and a picture line every second from `from` to `to` seconds. */
  const feed = (
    from: number,
    to: number,
    momentary: (t: number) => number,
    pblack: (t: number) => number = () => 0,
  ) => {
    for (let tenth = from * 10; tenth < to * 10; tenth++) {
      const t = tenth / 10;
      fs.appendFileSync(loudnessFile(), loudness(t, momentary(t)));
      if (tenth % 10 === 0) expect(meter.line(1, picture(t, pblack(t)))).toBe(true);
    }
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-meter-'));
    meter = make();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('times a silence while it lasts, ends it when sound comes back, and writes settled windows', () => {
    feed(0, 60, (t) => (t >= 20 && t < 45 ? -120.7 : -21.8));
    const summary = meter.report();
    expect(summary.conditions).toEqual([]);
    expect(summary.longestSilenceSeconds).toBeCloseTo(25, 0);
    expect(summary.silentSeconds).toBeCloseTo(25, 0);
    expect(summary.integratedLufs).toBeCloseTo(-21.8, 1);
    expect(summary.peakDbfs).toBeNull();
    // The run's sample peak comes with volumedetect's summary when the run ends; silence (-91 dB) has none.
    expect(meter.line(1, '[Parsed_volumedetect_1 @ 0x5] max_volume: -91.0 dB')).toBe(true);
    expect(meter.report().peakDbfs).toBeNull();
    expect(meter.line(1, '[Parsed_volumedetect_1 @ 0x5] max_volume: -14.5 dB')).toBe(true);
    expect(meter.report().peakDbfs).toBe(-14.5);
    // Windows settle 15 s after their end: up to 40-50 s of the window.
    const windows = readWindows(file());
    expect(windows.map((w) => w.start.slice(11, 19))).toEqual(['11:00:00', '11:00:10', '11:00:20', '11:00:30']);
    expect(windows.map((w) => w.silent)).toEqual([0, 0, 10, 10]);
    expect(windows[2]).toMatchObject({ loudness: null, blocks: 0, video: true });
    // A running recording's summary carries the windows written, for the Instances details; the final one none.
    expect(meter.report().recent).toEqual(windows);
    const final = meter.report(true);
    expect(final.conditions).toEqual([]);
    expect(final.recent).toBeUndefined();
    expect(readWindows(file())).toHaveLength(6);
  });

  it("a running recording's summary carries its last 30 windows, also after a restart", () => {
    feed(0, 400, () => -22);
    const recent = meter.report().recent ?? [];
    expect(recent).toHaveLength(30);
    expect(recent).toEqual(readWindows(file()).slice(-30));
    // Settled 15 s after its end: the last is the one of 370-380 s.
    expect(recent.at(-1)?.start).toBe('2026-11-27T11:06:10.000Z');
    meter = make();
    expect(meter.report().recent).toEqual(recent);
  });

  it('reports an ongoing silence with where it began and its length', () => {
    feed(0, 40, (t) => (t >= 10 ? -70.5 : -23));
    expect(meter.report().conditions).toEqual([
      { kind: 'audio_silent', since: '2026-11-27T11:00:10.000Z', seconds: 29.9 },
    ]);
  });

  it('a black picture is black, not frozen; a still picture reported late is frozen from where it began', () => {
    feed(
      0,
      30,
      () => -22,
      (t) => (t >= 5 && t < 15 ? 100 : 12),
    );
    expect(meter.line(1, freeze('start', 18))).toBe(true);
    feed(30, 40, () => -22);
    const frozen = meter.report();
    expect(frozen.conditions).toEqual([{ kind: 'picture_frozen', since: '2026-11-27T11:00:18.000Z', seconds: 21 }]);
    expect(frozen.blackSeconds).toBeCloseTo(10, 0);
    expect(frozen.frozenSeconds).toBeCloseTo(21, 0);
    meter.line(1, freeze('end', 40));
    feed(40, 41, () => -22);
    expect(meter.report().conditions).toEqual([]);
  });

  it('a run whose input has a picture and no sound track: audio_missing from its start', () => {
    for (const line of [
      "Input #0, mpegts, from 'pipe:0':",
      '  Stream #0:0[0x100]: Video: h264 (Constrained Baseline), yuv420p, 320x240, 15 fps',
      "Output #0, segment, to '/x/run-0001-%05d.ts':",
    ])
      expect(meter.line(1, line)).toBe(false);
    for (let t = 0; t < 30; t++) meter.line(1, picture(t, 0));
    expect(meter.report().conditions).toEqual([
      { kind: 'audio_missing', since: '2026-11-27T11:00:00.000Z', seconds: 29 },
    ]);
  });

  it("keeps the filters' summary lines out of the log, and passes every other line on", () => {
    expect(meter.line(1, '[Parsed_ebur128_3 @ 0x5] Summary:')).toBe(true);
    expect(meter.line(1, '  Integrated loudness:')).toBe(true);
    expect(meter.line(1, '    I:         -21.9 LUFS')).toBe(true);
    expect(meter.line(1, '[Parsed_volumedetect_1 @ 0x6] mean_volume: -21.1 dB')).toBe(true);
    expect(meter.line(1, '[Parsed_volumedetect_1 @ 0x6] histogram_18db: 44800')).toBe(true);
    expect(meter.line(1, '[hls @ 0x1] HTTP error 404 Not Found')).toBe(false);
  });

  it('a recorder started again carries on the totals and the integrated loudness of the windows written', () => {
    feed(0, 60, (t) => (t < 30 ? -20 : -120));
    const before = meter.report();
    meter = new ContentMeter({
      file: file(),
      windowStart: WINDOW_START,
      loudnessFileOf: () => loudnessFile(),
      anchorOf: () => null,
      toServerIso: (ms) => new Date(ms).toISOString(),
      log: () => undefined,
      previous: before,
    });
    const after = meter.report();
    expect(after.silentSeconds).toBe(before.silentSeconds);
    expect(after.integratedLufs).toBeCloseTo(-20, 1);
  });
});
