/*
 * What an ffmpeg run adds to measure the content it records (docs/operations/content-assurance.md):
 * a second output of the same run that decodes the stream and throws the frames away after ffmpeg's
 * own filters have looked at them, so no second process reads the stream. content-meter.ts reads what
 * they find:
 *
 * - audio: `ebur128` (EBU R128 momentary loudness every 100 ms of the sound it is given, printed by
 *   `ametadata` into a file beside the run's pieces, which the recorder reads once a second) and
 *   `volumedetect` (the run's sample peak, of every sample, in its summary on stderr); silence is a
 *   momentary loudness under SILENT_BELOW_LUFS, so the strip and the alarm use one measure;
 * - video: `freezedetect` (a picture that does not change) and `blackframe` with amount 0 (the share of
 *   black pixels of every frame it sees, so a black picture is known while it lasts, not only when it
 *   ends as `blackdetect` reports it).
 *
 * A run that copies the stream decodes only its key frames for the picture (a frozen or black picture
 * lasts minutes, key frames come every few seconds), which keeps the decoding cost near that of the
 * audio alone, and looks at one of them every few seconds (`pictureEverySeconds`); it gives `ebur128`
 * the first SOUND_SAMPLED_SECONDS of every second of sound (`SAMPLED_SOUND`). A run that transcodes
 * decodes every frame anyway, looks at the first picture of each second and measures all the sound.
 * Part of the recorder runtime: no imports.
 */

/** Momentary loudness under this is silence (a muted microphone reads about -70 LUFS and lower). */
export const SILENT_BELOW_LUFS = -50;
/** At least this share of a picture's pixels under the black level makes it a black picture. */
export const BLACK_PICTURE_PERCENT = 98;
/** Seconds a picture must stay unchanged before freezedetect reports it (its start is reported as where it began). */
const FREEZE_MIN_SECONDS = 2;
/** The longest a run that copies goes between the pictures it looks at. */
const PICTURE_EVERY_MAX_SECONDS = 10;

/**
 * How often a run that copies looks at a picture, for CONTENT_ALARM_SECONDS `alarmSeconds`: a quarter
 * of it, at most every 10 s (the first key frame from then on). A frozen or black picture is known at
 * most that much (and a key frame) late, so its alarm is too: 10 s after the default 120 s, within the
 * 150 s the issue asks; 2 s after a threshold of 8 s. Measured on the bench's 720p programme (key
 * frames every 2 s), the filters looking at every key frame cost about a third of the picture's share.
 */
export function pictureEverySeconds(alarmSeconds: number): number {
  return Math.min(PICTURE_EVERY_MAX_SECONDS, alarmSeconds / 4);
}

/**
 * Of each second of sound, the part a copying run's `ebur128` measures: one whole momentary block. The
 * filter's double-precision K-weighting of every sample was the largest part of what measuring adds to
 * a copying run (0.19 of 0.45 CPU-s over 240 s of 720p with stereo sound, ffmpeg alone from a file);
 * given four tenths of the sound it costs four tenths. A silence, a mute or a sound coming back is
 * still seen within a second, and the loudness of a window or a recording is that of four tenths of
 * its seconds, spread evenly over it (docs/decisions/035). The peak is still every sample's.
 */
export const SOUND_SAMPLED_SECONDS = 0.4;

/** The sound frames a copying run measures: those starting in the first SOUND_SAMPLED_SECONDS of a second (and any without a time). */
const SAMPLED_SOUND = `aselect='isnan(t)+lt(mod(t,1),${SOUND_SAMPLED_SECONDS})',`;

/**
 * Options before `-i`: a run that copies decodes only key frames of the video it measures, on one
 * thread. A decoder's threads (one per core and one more) cost more than they save on a few key frames
 * a second: measured on ffmpeg alone over 120 s of the 720p bench programme, they were a quarter of
 * what measuring added (+0.43 CPU-s with them, +0.32 on one thread; docs/decisions/021).
 */
export function contentInputOptions(copies: boolean): string[] {
  return copies ? ['-skip_frame:v', 'nokey', '-threads:v', '1'] : [];
}

/** Where a run prints its loudness readings: beside its list of pieces (run-0003.list -> run-0003.loudness). */
export function loudnessFileOf(listPath: string): string {
  return `${listPath.replace(/\.list$/, '')}.loudness`;
}

/** A filter option's value as ffmpeg reads it inside -af: escaped for the option, then for the graph. */
function filterValue(text: string): string {
  return text.replace(/[\\':]/g, '\\$&').replace(/[\\'[\],;]/g, '\\$&');
}

/**
 * The measuring output, after the recording's own: the filters' verdicts go to stderr and `loudnessFile`,
 * the frames nowhere. A copying run's key frames are picked by their time, and again at once should the
 * time go back (a discontinuity ffmpeg did not smooth), so the picture is never left unlooked at.
 */
export function contentOutput(copies: boolean, loudnessFile: string, alarmSeconds: number): string[] {
  // Pictures are picked, never made up: `fps=1` filled a jump in the timestamps (segments an overloaded
  // recorder let go) with copies of the last picture, which freezedetect then found frozen.
  const every = copies ? pictureEverySeconds(alarmSeconds) : 1;
  const picked = `select='isnan(prev_selected_t)+lt(t,prev_selected_t)+gte(t-prev_selected_t,${every})'`;
  return [
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    // volumedetect takes 16-bit samples and sees every one, at almost no cost; ebur128 what is picked.
    '-af',
    `aformat=sample_fmts=s16,volumedetect,${copies ? SAMPLED_SOUND : ''}ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.M:direct=1:file=${filterValue(loudnessFile)}`,
    '-vf',
    `${picked},freezedetect=n=-60dB:d=${FREEZE_MIN_SECONDS},blackframe=amount=0:threshold=32`,
    // The null output still encodes what reaches it, by default to 16-bit PCM: a conversion of every
    // sample ebur128 passes on (as doubles). Doubles go through as they are: 0.04 CPU-s less per 240 s
    // of 48 kHz stereo (of 0.49 that measuring the sound adds), measured on ffmpeg alone from a file.
    '-c:a',
    'pcm_f64le',
    '-f',
    'null',
    '-',
  ];
}
