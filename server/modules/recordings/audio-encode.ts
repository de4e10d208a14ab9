import { spawn } from 'node:child_process';
import path from 'node:path';
import { HttpError } from '../../lib/http-error';
import { lowerPriority } from '../../lib/process-priority';

/*
 * The audio-only rendition of a recording (docs/decisions/025-audio-rendition.md): its first sound track,
 * normalised to -16 LUFS integrated and encoded as AAC in M4A, the whole window kept. Two passes: ffmpeg's
 * `ebur128` measures the track (integrated loudness, its gate, loudness range, true peak), then `loudnorm`
 * applies those figures, linearly where the peak allows. Measuring with `ebur128` rather than loudnorm's
 * own first pass does the same BS.1770 measurement at a sixth of the CPU (2.8 s against 18 s per 10 min).
 */

export const AUDIO_TARGET_LUFS = -16;
const TARGET_TRUE_PEAK = -1.5;
/** loudnorm's usual loudness range; a wider measured one is kept (a narrower target would compress). */
const TARGET_LRA = 11;
const AUDIO_BITRATE = '128k';

export interface EncodeOptions {
  ffmpegPath: string;
  ffprobePath: string;
  /** How much nicer than the server the encodes run: live recorders come first. */
  niceness: number;
  /** Killed when the server closes. */
  signal?: AbortSignal;
}

/** What ebur128 measured of a track: the figures loudnorm takes as `measured_*`. */
export interface LoudnessMeasure {
  integrated: number;
  threshold: number;
  range: number;
  truePeak: number;
}

/** Runs a program niced; its stdout, or an error naming it with the end of its stderr. */
function run(program: string, args: string[], options: EncodeOptions, stderrOut?: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // Detached: a session (an autogroup) of its own, so the niceness weighs against the recorders' groups too.
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, signal: options.signal });
    if (child.pid) lowerPriority(child.pid, options.niceness);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new Error(`${path.basename(program)} could not run: ${error.message}`)));
    child.on('close', (code, signal) => {
      const stderr = Buffer.concat(err).toString('utf8');
      stderrOut?.push(stderr);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else {
        const tail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 600);
        reject(new Error(`${path.basename(program)} failed (${signal ?? `exit ${code}`}): ${tail || 'no message'}`));
      }
    });
  });
}

/** Whether the file has a sound track at all. */
export async function hasAudio(input: string, options: EncodeOptions): Promise<boolean> {
  const listed = await run(
    options.ffprobePath,
    ['-v', 'error', '-select_streams', 'a', '-show_entries', 'stream=index', '-of', 'csv=p=0', input],
    options,
  );
  return listed.trim() !== '';
}

/** A figure of ebur128's summary; `-inf` (a silent track) is loudnorm's lowest. */
function figure(summary: string, pattern: RegExp, what: string): number {
  const match = pattern.exec(summary);
  if (!match) throw new Error(`ffmpeg's loudness summary has no ${what}`);
  return match[1] === '-inf' ? -99 : Number(match[1]);
}

/** ebur128's closing summary, read into the figures loudnorm takes. */
export function parseLoudnessSummary(stderr: string): LoudnessMeasure {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) throw new Error('ffmpeg printed no loudness summary');
  const summary = stderr.slice(at);
  const number = '(-?[\\d.]+|-inf)';
  return {
    integrated: figure(summary, new RegExp(`I:\\s+${number} LUFS`), 'integrated loudness'),
    threshold: figure(summary, new RegExp(`I:[^\\n]*\\n\\s*Threshold:\\s+${number} LUFS`), 'integrated threshold'),
    range: figure(summary, new RegExp(`LRA:\\s+${number} LU`), 'loudness range'),
    truePeak: figure(summary, new RegExp(`Peak:\\s+${number} dBFS`), 'true peak'),
  };
}

/** Measures the first sound track's loudness (the video is not decoded). */
export async function measureLoudness(input: string, options: EncodeOptions): Promise<LoudnessMeasure> {
  const stderr: string[] = [];
  await run(
    options.ffmpegPath,
    [
      ...['-hide_banner', '-nostats', '-nostdin', '-i', input],
      ...['-map', '0:a:0', '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-'],
    ],
    options,
    stderr,
  );
  return parseLoudnessSummary(stderr.join(''));
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** loudnorm's second pass over what was measured. */
export function loudnormFilter(measured: LoudnessMeasure): string {
  const options = {
    I: AUDIO_TARGET_LUFS,
    TP: TARGET_TRUE_PEAK,
    LRA: clamp(Math.max(TARGET_LRA, Math.ceil(measured.range)), 1, 50),
    measured_I: clamp(measured.integrated, -99, 0),
    // loudnorm takes a range of 0 (a steady tone) as "not measured" and compresses instead: 0.1 is as good.
    measured_LRA: clamp(measured.range, 0.1, 99),
    measured_TP: clamp(measured.truePeak, -99, 99),
    measured_thresh: clamp(measured.threshold, -99, 0),
    linear: 'true',
    print_format: 'none',
  };
  return `loudnorm=${Object.entries(options)
    .map(([key, value]) => `${key}=${value}`)
    .join(':')}`;
}

/**
 * Writes the audio-only rendition of `input` to `output` (an M4A). A file without sound is a 422 saying
 * so; an ffmpeg failure throws with its message.
 */
export async function encodeAudioRendition(input: string, output: string, options: EncodeOptions): Promise<void> {
  if (!(await hasAudio(input, options)))
    throw new HttpError(422, 'This recording has no sound track: there is no audio to serve');
  const measured = await measureLoudness(input, options);
  await run(
    options.ffmpegPath,
    [
      ...['-hide_banner', '-nostats', '-nostdin', '-loglevel', 'error', '-y', '-i', input],
      // loudnorm works at 192 kHz; a track whose channel layout is not told (mono AAC in MPEG-TS) is given one.
      ...['-map', '0:a:0', '-af', `${loudnormFilter(measured)},aresample=48000,aformat=channel_layouts=mono|stereo`],
      ...['-c:a', 'aac', '-b:a', AUDIO_BITRATE, '-movflags', '+faststart', '-f', 'mp4', output],
    ],
    options,
  );
}
