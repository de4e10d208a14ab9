/*
 * The recorder's content meter (docs/operations/content-assurance.md): it reads what the measuring
 * output of each ffmpeg run (content-filters.ts) finds (the loudness from the run's loudness file, the
 * rest from ffmpeg's log), and keeps
 *
 * - the conditions going on now (silent, no audio track, frozen or black picture) and how long they
 *   have lasted in media seconds, which the recorder reports in its state for the server to alarm on;
 * - one reading per 10 s of the window (loudness, seconds silent, frozen and black), appended to
 *   content.jsonl of the instance folder once the window is settled;
 * - the recording's integrated loudness, sample peak and longest silence.
 *
 * Times are the media's: each run's filter time from its first frame, placed where the run's media
 * starts (`anchorOf`). A new run (a reconnection) starts its conditions afresh. Part of the recorder
 * runtime: Node and its siblings only.
 */
import fs from 'node:fs';
import { BLACK_PICTURE_PERCENT, SILENT_BELOW_LUFS } from './content-filters';
import {
  RECENT_CONTENT_WINDOWS,
  type ContentCondition,
  type ContentSummary,
  type ContentWindow,
  type OngoingCondition,
} from './protocol';

const WINDOW_MS = 10_000;
/**
 * A window is written once the media is this far past its end: freezedetect reports a freeze where
 * it began, at the next picture looked at (up to 10 s and a key frame later in a copied stream).
 */
const SETTLE_MS = 15_000;
/** Blocks quieter than this do not count towards loudness (EBU R128's absolute gate). */
const ABSOLUTE_GATE_LUFS = -70;

/** ebur128's first momentary block is whole after 400 ms: before it reads as silence. */
const FIRST_BLOCK_SECONDS = 0.4;
/** volumedetect's sample peak of the whole run, in its summary when the run ends. */
const RUN_PEAK = /^\[Parsed_volumedetect_\d+ @ [^\]]+\] max_volume: (-?[\d.]+) dB$/;
/** What volumedetect says of 16-bit silence (every sample 0): no peak at all. */
const SILENT_PEAK_DB = -91;
/** The rest of the filters' summaries: the meter keeps its own, these lines only crowd the log. */
const FILTER_SUMMARY =
  /^\[Parsed_ebur128_\d+ @ [^\]]+\] Summary:|^\s+(?:Integrated loudness|Loudness range):$|^\s+(?:I|LRA|LRA low|LRA high|Threshold):\s|^\[Parsed_volumedetect_\d+ @ [^\]]+\] /;
const BLACKFRAME = /^\[Parsed_blackframe_\d+ @ [^\]]+\] frame:\d+ pblack:(\d+) .*?\bt:([\d.]+)/;
/** The loudness file: each 100 ms frame's time, then its momentary loudness (ametadata's print). */
const FRAME_TIME = /^frame:\d+\s+pts:\S+\s+pts_time:([\d.]+)/;
const MOMENTARY = /^lavfi\.r128\.M=(\S+)/;
const FREEZE = /^\[freezedetect @ [^\]]+\] lavfi\.freezedetect\.freeze_(start|end|duration): *([\d.]+)/;
const INPUT_STREAM = /^\s+Stream #0:\d+\S*: (Audio|Video): /;

interface WindowTally {
  measured: number;
  energy: number;
  blocks: number;
  momentaryMax: number | null;
  silent: number;
  frozen: number;
  black: number;
  video: boolean;
}

interface RunMeter {
  index: number;
  /** Where its filter time 0 lies (local ms); set by its first reading. */
  anchor: number | null;
  /** Where the media measured so far ends (local ms): of both tracks, of the sound, of the picture. */
  now: number;
  sound: number;
  picture: number;
  /** Reading ffmpeg's description of its input; `described` once it is over. */
  input: 'waiting' | 'reading' | 'described';
  hasAudio: boolean;
  hasVideo: boolean;
  silentSince: number | null;
  frozenSince: number | null;
  blackSince: number | null;
  /** Bytes of its loudness file read so far, an unfinished line, and the time of the frame being read. */
  loudnessRead: number;
  loudnessRest: string;
  loudnessTime: number | null;
}

export interface ContentMeterOptions {
  /** content.jsonl of the instance folder. */
  file: string;
  /** The window's start (local ms): readings are 10 s windows from it. */
  windowStart: number;
  /** The file run `run`'s ffmpeg prints its loudness readings to (content-filters.ts). */
  loudnessFileOf(run: number): string;
  /** Where run `run`'s media begins (local ms), when the recorder knows it; else it is taken as live. */
  anchorOf(run: number): number | null;
  toServerIso(ms: number): string;
  log(line: string): void;
  /** What an earlier recorder on this folder reported, carried on. */
  previous?: ContentSummary | null;
}

const numberOrNull = (text: string) => {
  const value = Number.parseFloat(text);
  return Number.isFinite(value) ? value : null;
};
const max = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

export class ContentMeter {
  private run: RunMeter | null = null;
  private readonly open = new Map<number, WindowTally>();
  /** Loudness of the windows written (energy and blocks), for the integrated loudness. */
  private readonly written: { energy: number; blocks: number }[] = [];
  /** The last windows written, for the summary of a running recording. */
  private recent: ContentWindow[];
  private readonly totals: { measured: number; silent: number; frozen: number; black: number };
  private longestSilenceMs: number;
  private peak: number | null;

  constructor(private readonly options: ContentMeterOptions) {
    const previous = options.previous;
    this.totals = {
      measured: (previous?.measuredSeconds ?? 0) * 1000,
      silent: (previous?.silentSeconds ?? 0) * 1000,
      frozen: (previous?.frozenSeconds ?? 0) * 1000,
      black: (previous?.blackSeconds ?? 0) * 1000,
    };
    this.longestSilenceMs = (previous?.longestSilenceSeconds ?? 0) * 1000;
    this.peak = previous?.peakDbfs ?? null;
    const earlier = readWindows(options.file);
    for (const window of earlier)
      if (window.loudness !== null && window.blocks > 0)
        this.written.push({ energy: window.blocks * 10 ** (window.loudness / 10), blocks: window.blocks });
    this.recent = earlier.slice(-RECENT_CONTENT_WINDOWS);
  }

  /** A line of ffmpeg run `run`'s stderr; true when it is a measurement (kept out of the log). */
  line(run: number, text: string): boolean {
    const meter = this.runMeter(run);
    const black = BLACKFRAME.exec(text);
    if (black) {
      this.picture(meter, Number(black[2]), Number(black[1]) >= BLACK_PICTURE_PERCENT);
      return true;
    }
    const freeze = FREEZE.exec(text);
    if (freeze) {
      this.freeze(meter, freeze[1], Number(freeze[2]));
      return true;
    }
    const peak = Number(RUN_PEAK.exec(text)?.[1] ?? -Infinity);
    if (peak > SILENT_PEAK_DB) this.peak = Math.max(this.peak ?? -Infinity, peak);
    if (FILTER_SUMMARY.test(text)) return true;
    this.describeInput(meter, text);
    return false;
  }

  /** Writes the settled windows; the summary for the state. At the end (`final`) every window is written. */
  report(final = false): ContentSummary {
    if (this.run) this.readLoudness(this.run);
    const now = this.run?.now ?? -Infinity;
    const settled = [...this.open.keys()].filter((index) => final || this.windowEnd(index) + SETTLE_MS <= now);
    this.write(settled.sort((a, b) => a - b));
    return {
      measuredSeconds: round(this.totals.measured / 1000),
      integratedLufs: this.integrated(),
      peakDbfs: this.peak,
      longestSilenceSeconds: round(Math.max(this.longestSilenceMs, this.silentFor()) / 1000),
      silentSeconds: round(this.totals.silent / 1000),
      frozenSeconds: round(this.totals.frozen / 1000),
      blackSeconds: round(this.totals.black / 1000),
      conditions: final ? [] : this.conditions(),
      // The finished recording keeps every window in its content file: the summary needs none of them.
      ...(final ? {} : { recent: this.recent }),
    };
  }

  private runMeter(index: number): RunMeter {
    if (this.run?.index === index) return this.run;
    // A new run (a reconnection, or the next numbering of an HLS stream): what the last one measured is settled.
    if (this.run) {
      this.readLoudness(this.run);
      this.closeSilence(this.run, this.run.now);
    }
    this.run = {
      index,
      anchor: null,
      now: -Infinity,
      sound: -Infinity,
      picture: -Infinity,
      input: 'waiting',
      hasAudio: false,
      hasVideo: false,
      silentSince: null,
      frozenSince: null,
      blackSince: null,
      loudnessRead: 0,
      loudnessRest: '',
      loudnessTime: null,
    };
    return this.run;
  }

  /** Where filter time `t` of the run lies (local ms). */
  private at(meter: RunMeter, t: number): number {
    meter.anchor ??= this.options.anchorOf(meter.index) ?? Date.now() - t * 1000;
    return meter.anchor + t * 1000;
  }

  /** The media advanced to `to`: the conditions going on fill the time since the last reading. */
  /**
   * The sound or the picture advanced to `to`: its conditions going on fill the time since its last
   * reading. Each has its own clock: the sound is read a second at a time, the picture as it comes.
   */
  private advance(meter: RunMeter, track: 'sound' | 'picture', to: number): void {
    const before = meter.now;
    if (to > before) {
      meter.now = to;
      if (before !== -Infinity) this.spread('measured', before, to);
    }
    const from = meter[track];
    if (!(to > from)) return;
    meter[track] = to;
    if (from === -Infinity) return;
    if (track === 'sound') {
      if (meter.silentSince !== null) this.spread('silent', from, to);
    } else if (meter.blackSince !== null) this.spread('black', from, to);
    else if (meter.frozenSince !== null) this.spread('frozen', from, to);
  }

  /**
   * Reads what ffmpeg appended to the run's loudness file since the last time: a `frame:… pts_time:T`
   * line, then `lavfi.r128.M=<LUFS>`, every 100 ms of sound. Read once a report, not line by line as
   * ffmpeg writes them: ten wake-ups a second of the recorder cost more than the filter.
   */
  private readLoudness(meter: RunMeter): void {
    let text: string;
    try {
      const fd = fs.openSync(this.options.loudnessFileOf(meter.index), 'r');
      try {
        const size = fs.fstatSync(fd).size;
        const buffer = Buffer.alloc(Math.max(0, size - meter.loudnessRead));
        const read = fs.readSync(fd, buffer, 0, buffer.length, meter.loudnessRead);
        meter.loudnessRead += read;
        text = meter.loudnessRest + buffer.toString('utf8', 0, read);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return; // no sound measured yet (or none in this stream)
    }
    const lines = text.split('\n');
    meter.loudnessRest = lines.pop() ?? '';
    for (const line of lines) {
      const frame = FRAME_TIME.exec(line);
      if (frame) meter.loudnessTime = Number(frame[1]);
      const momentary = MOMENTARY.exec(line);
      if (momentary && meter.loudnessTime !== null) this.audio(meter, meter.loudnessTime, numberOrNull(momentary[1]));
    }
  }

  private audio(meter: RunMeter, t: number, momentary: number | null) {
    if (t < FIRST_BLOCK_SECONDS) return;
    const at = this.at(meter, t);
    this.advance(meter, 'sound', at);
    const tally = this.tally(at);
    const silent = momentary === null || momentary < SILENT_BELOW_LUFS;
    if (silent) meter.silentSince ??= at;
    else this.closeSilence(meter, at);
    if (momentary !== null && momentary >= ABSOLUTE_GATE_LUFS) {
      tally.energy += 10 ** (momentary / 10);
      tally.blocks += 1;
    }
    tally.momentaryMax = max(tally.momentaryMax, momentary);
  }

  private picture(meter: RunMeter, t: number, black: boolean): void {
    const at = this.at(meter, t);
    this.advance(meter, 'picture', at);
    this.tally(at).video = true;
    if (black) meter.blackSince ??= at;
    else meter.blackSince = null;
  }

  private freeze(meter: RunMeter, edge: string, t: number): void {
    const at = this.at(meter, t);
    if (edge === 'start') {
      meter.frozenSince = at;
      // Reported once the picture has stood still a while: that while was frozen too.
      if (meter.blackSince === null && at < meter.picture) this.spread('frozen', at, meter.picture);
    } else if (edge === 'end') meter.frozenSince = null;
  }

  private closeSilence(meter: RunMeter, at: number): void {
    if (meter.silentSince === null) return;
    this.longestSilenceMs = Math.max(this.longestSilenceMs, at - meter.silentSince);
    meter.silentSince = null;
  }

  private silentFor(): number {
    const run = this.run;
    return run?.silentSince != null ? run.sound - run.silentSince : 0;
  }

  /** ffmpeg describes its input before the first frame: a picture without a sound track is a condition of its own. */
  private describeInput(meter: RunMeter, text: string): void {
    if (meter.input === 'waiting' && text.startsWith('Input #0,')) meter.input = 'reading';
    else if (meter.input === 'reading') {
      const stream = INPUT_STREAM.exec(text);
      if (stream?.[1] === 'Audio') meter.hasAudio = true;
      else if (stream?.[1] === 'Video') meter.hasVideo = true;
      else if (/^(Output #0|Stream mapping:)/.test(text)) meter.input = 'described';
    }
  }

  private conditions(): OngoingCondition[] {
    const run = this.run;
    if (!run || run.anchor === null || run.now === -Infinity) return [];
    const ongoing = (kind: ContentCondition, since: number | null, until: number) =>
      since === null ? [] : [{ kind, since: this.options.toServerIso(since), seconds: round((until - since) / 1000) }];
    return [
      ...ongoing('audio_silent', run.silentSince, run.sound),
      ...ongoing(
        'audio_missing',
        run.input === 'described' && run.hasVideo && !run.hasAudio ? run.anchor : null,
        run.now,
      ),
      ...ongoing('picture_black', run.blackSince, run.picture),
      ...ongoing('picture_frozen', run.blackSince === null ? run.frozenSince : null, run.picture),
    ];
  }

  private windowIndex(at: number): number {
    return Math.floor((at - this.options.windowStart) / WINDOW_MS);
  }

  private windowEnd(index: number): number {
    return this.options.windowStart + (index + 1) * WINDOW_MS;
  }

  private tally(at: number): WindowTally {
    const index = this.windowIndex(at);
    let tally = this.open.get(index);
    if (!tally) {
      tally = {
        measured: 0,
        energy: 0,
        blocks: 0,
        momentaryMax: null,
        silent: 0,
        frozen: 0,
        black: 0,
        video: false,
      };
      this.open.set(index, tally);
    }
    return tally;
  }

  /** Adds `from`..`to` (local ms) to one measure of every window it crosses, and to the recording's total. */
  private spread(measure: 'measured' | 'silent' | 'frozen' | 'black', from: number, to: number): void {
    this.totals[measure] += to - from;
    for (let start = from; start < to;) {
      const end = Math.min(to, this.windowEnd(this.windowIndex(start)));
      this.tally(start)[measure] += end - start;
      start = end;
    }
  }

  private write(indexes: number[]): void {
    if (indexes.length === 0) return;
    const windows = indexes.map((index) => this.windowOf(index, this.open.get(index) as WindowTally));
    try {
      fs.appendFileSync(this.options.file, windows.map((window) => `${JSON.stringify(window)}\n`).join(''));
    } catch (error) {
      // Kept open: the next report tries again.
      this.options.log(`could not write the content readings: ${(error as Error).message}`);
      return;
    }
    for (const index of indexes) {
      const tally = this.open.get(index) as WindowTally;
      if (tally.blocks > 0) this.written.push({ energy: tally.energy, blocks: tally.blocks });
      this.open.delete(index);
    }
    this.recent = [...this.recent, ...windows].slice(-RECENT_CONTENT_WINDOWS);
  }

  private windowOf(index: number, tally: WindowTally): ContentWindow {
    return {
      start: this.options.toServerIso(this.options.windowStart + index * WINDOW_MS),
      measured: round(tally.measured / 1000),
      loudness: tally.blocks > 0 ? round(10 * Math.log10(tally.energy / tally.blocks)) : null,
      blocks: tally.blocks,
      momentaryMax: tally.momentaryMax,
      silent: round(tally.silent / 1000),
      frozen: round(tally.frozen / 1000),
      black: round(tally.black / 1000),
      video: tally.video,
    };
  }

  /**
   * EBU R128's integrated loudness, gated per window rather than per block: the energy mean of the
   * windows no quieter than 10 LU under the mean of all of them (blocks under -70 LUFS never count).
   */
  private integrated(): number | null {
    const windows = [
      ...this.written,
      ...[...this.open.values()].filter((t) => t.blocks > 0).map((t) => ({ energy: t.energy, blocks: t.blocks })),
    ];
    const loudness = (list: { energy: number; blocks: number }[]) => {
      const blocks = list.reduce((sum, w) => sum + w.blocks, 0);
      return blocks ? 10 * Math.log10(list.reduce((sum, w) => sum + w.energy, 0) / blocks) : null;
    };
    const ungated = loudness(windows);
    if (ungated === null) return null;
    const gated = loudness(windows.filter((w) => 10 * Math.log10(w.energy / w.blocks) >= ungated - 10));
    return gated === null ? null : round(gated);
  }
}

/** The windows in a content.jsonl; a line cut short by a crash is skipped. */
export function readWindows(file: string): ContentWindow[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const windows: ContentWindow[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      windows.push(JSON.parse(line) as ContentWindow);
    } catch {
      // half a line: the recorder died while appending it
    }
  }
  return windows;
}

const round = (value: number) => Math.round(value * 10) / 10;
