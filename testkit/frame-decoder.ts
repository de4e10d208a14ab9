import { spawn } from 'node:child_process';
import { ffprobe } from './capture';
import { clip, framesIn, HOLE_MIN_MS, mergeRanges, type FrameRange, type WindowTruth } from './fidelity-origin';
import { blockIsWhite, FRAME_CODE } from './numbered-stream';

/*
 * Reads a recording of the numbered programme back into frame indices, and compares them with what
 * the origin offered. The recording may be scaled (letterboxed to its frame size) and re-encoded.
 */

/** Each block is sampled on this many pixels a side (the picture scaled down to 8x that of the grid). */
const SAMPLE = 8;
/** Grey levels between these read as neither black nor white: a damaged block, so an unreadable frame. */
const BLACK_BELOW = 80;
const WHITE_ABOVE = 175;

/** The part of a WxH frame the 16:9 picture fills once scaled to fit and letterboxed, as the recorder pads it. */
function pictureArea(width: number, height: number): { w: number; h: number; x: number; y: number } {
  const aspect = FRAME_CODE.width / FRAME_CODE.height;
  const w = Math.min(width, Math.round(height * aspect));
  const h = Math.min(height, Math.round(width / aspect));
  return { w, h, x: Math.floor((width - w) / 2), y: Math.floor((height - h) / 2) };
}

/** The index a frame's blocks spell, or null when a block is grey or the complement does not match. */
export function readFrame(pixels: Buffer): number | null {
  const { columns, rows, indexBits } = FRAME_CODE;
  const rowBytes = columns * SAMPLE;
  let index = 0;
  const bits: boolean[] = [];
  for (let block = 0; block < columns * rows; block++) {
    const left = (block % columns) * SAMPLE;
    const top = Math.floor(block / columns) * SAMPLE;
    // The middle half of the block: its edges ring after a scale and a lossy encode.
    let sum = 0;
    for (let y = SAMPLE / 4; y < (SAMPLE * 3) / 4; y++)
      for (let x = SAMPLE / 4; x < (SAMPLE * 3) / 4; x++) sum += pixels[(top + y) * rowBytes + left + x];
    const mean = sum / (SAMPLE / 2) ** 2;
    if (mean > BLACK_BELOW && mean < WHITE_ABOVE) return null;
    bits.push(mean >= WHITE_ABOVE);
  }
  for (let bit = 0; bit < indexBits; bit++) if (bits[bit]) index += 2 ** bit;
  return bits.every((white, block) => white === blockIsWhite(index, block)) ? index : null;
}

/** Every frame of the file's first video stream in decoding order: its index, or null when unreadable. */
export async function readFrameIndices(file: string): Promise<(number | null)[]> {
  const probe = await ffprobe(file);
  if (!probe.width || !probe.height) throw new Error(`${file} has no video`);
  const area = pictureArea(probe.width, probe.height);
  const frameBytes = FRAME_CODE.columns * SAMPLE * FRAME_CODE.rows * SAMPLE;
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-i',
      file,
      '-map',
      '0:v:0',
      // Every decoded frame once: no frame dropped or repeated to keep a rate.
      '-fps_mode',
      'passthrough',
      '-vf',
      `crop=${area.w}:${area.h}:${area.x}:${area.y},scale=${FRAME_CODE.columns * SAMPLE}:${FRAME_CODE.rows * SAMPLE}:flags=area,format=gray`,
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const indices: (number | null)[] = [];
  let pending = Buffer.alloc(0);
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    let offset = 0;
    for (; offset + frameBytes <= pending.length; offset += frameBytes)
      indices.push(readFrame(pending.subarray(offset, offset + frameBytes)));
    pending = pending.subarray(offset);
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`ffmpeg could not decode ${file}: ${errors}`);
  return indices;
}

/**
 * The indices of a recording of a programme whose picture was frozen over `frozen` (its first frame's
 * picture shown in the place of each, numbered-stream.ts's frozenFrames): each run of that first
 * frame's index stands for the frames it was shown in place of, in order, so the frozen picture is
 * counted as kept where it was kept, not as one frame repeated.
 */
export function unfreeze(indices: (number | null)[], frozen: FrameRange): (number | null)[] {
  let shown = 0;
  return indices.map((index, position) => {
    if (index !== frozen.first) return index;
    shown = indices[position - 1] === frozen.first ? shown + 1 : 0;
    return Math.min(frozen.first + shown, frozen.last);
  });
}

/** A run of frames of the programme, and where it shows in the recording. */
export interface FrameRun extends FrameRange {
  seconds: number;
  /** Seconds into the recording (its frame position at the programme's rate) where the run shows, or the frame after a hole. */
  atRecordingSecond: number;
}

export interface Loss extends FrameRun {
  /** Epoch ms the lost frames were on the air. */
  broadcastFrom: number;
  broadcastTo: number;
  /** Frames of the run the origin never offered (a fault made them unavailable). */
  unavailableFrames: number;
}

export interface FidelityReport {
  framesRead: number;
  unreadable: number;
  /** Frames of the window the recording holds (each once). */
  keptSeconds: number;
  /** Frames of the window the recording lacks, and of those the ones the origin offered. */
  lostSeconds: number;
  lostByUsSeconds: number;
  losses: Loss[];
  /** Frames seen a second time (e.g. a join that starts behind where the previous run ended). */
  repeatedSeconds: number;
  repeats: FrameRun[];
  /** Frames seen for the first time after a later frame. */
  reorderedSeconds: number;
  reorders: FrameRun[];
  /** Readable frames from outside the window (before its start or after its end). */
  outsideSeconds: number;
  /** Parts of the window (epoch ms) longer than a second in which no frame the recording holds was on the air. */
  holes: { from: number; to: number }[];
}

/** The parts of the window in which none of the kept frames was on the air. */
function holesOf(seen: Set<number>, window: WindowTruth): { from: number; to: number }[] {
  const holes: { from: number; to: number }[] = [];
  let covered = window.from;
  const close = (until: number) => {
    if (until - covered > HOLE_MIN_MS) holes.push({ from: covered, to: until });
  };
  if (window.frames) {
    for (let frame = window.frames.first; frame <= window.frames.last; frame++) {
      if (!seen.has(frame)) continue;
      close(window.broadcastAt(frame));
      // A frame is on the air for a frame's time, not until the next one: an encoder's pause after it is a hole.
      covered = Math.min(window.broadcastAt(frame + 1), window.broadcastAt(frame) + 1000 / FRAME_CODE.fps);
    }
  }
  close(window.to);
  return holes;
}

const seconds = (frames: number) => frames / FRAME_CODE.fps;

/** Groups positions of the recording holding consecutive frame indices into runs. */
function runsOf(hits: { position: number; index: number }[]): FrameRun[] {
  const runs: FrameRun[] = [];
  for (const { position, index } of hits) {
    const last = runs.at(-1);
    if (last && index === last.last + 1) {
      last.last = index;
      last.seconds = seconds(last.last - last.first + 1);
    } else runs.push({ first: index, last: index, seconds: seconds(1), atRecordingSecond: seconds(position) });
  }
  return runs;
}

/** Compares the frames a recording holds with what the window offered. */
export function compareWithTruth(indices: (number | null)[], window: WindowTruth): FidelityReport {
  const seen = new Set<number>();
  const repeated: { position: number; index: number }[] = [];
  const reordered: { position: number; index: number }[] = [];
  const firstPosition = new Map<number, number>();
  let highest = -1;
  let outside = 0;
  indices.forEach((index, position) => {
    if (index === null) return;
    if (seen.has(index)) repeated.push({ position, index });
    else {
      if (index < highest) reordered.push({ position, index });
      seen.add(index);
      firstPosition.set(index, position);
    }
    highest = Math.max(highest, index);
    if (!window.frames || index < window.frames.first || index > window.frames.last) outside++;
  });

  const losses: Loss[] = [];
  let kept = 0;
  if (window.frames) {
    const missing: FrameRange[] = [];
    for (let frame = window.frames.first; frame <= window.frames.last; frame++) {
      if (seen.has(frame)) kept++;
      else if (missing.at(-1)?.last === frame - 1) missing[missing.length - 1].last = frame;
      else missing.push({ first: frame, last: frame });
    }
    for (const hole of missing) {
      const after = firstPosition.get(hole.last + 1);
      const unavailableFrames = framesIn(clip(mergeRanges(window.unavailable), hole));
      losses.push({
        ...hole,
        seconds: seconds(hole.last - hole.first + 1),
        atRecordingSecond: seconds(after ?? indices.length),
        broadcastFrom: window.broadcastAt(hole.first),
        broadcastTo: window.broadcastAt(hole.last + 1),
        unavailableFrames,
      });
    }
  }
  const lostFrames = losses.reduce((sum, loss) => sum + loss.last - loss.first + 1, 0);
  const unavailableLost = losses.reduce((sum, loss) => sum + loss.unavailableFrames, 0);
  return {
    framesRead: indices.length,
    unreadable: indices.filter((index) => index === null).length,
    keptSeconds: seconds(kept),
    lostSeconds: seconds(lostFrames),
    lostByUsSeconds: seconds(lostFrames - unavailableLost),
    losses,
    repeatedSeconds: seconds(repeated.length),
    repeats: runsOf(repeated),
    reorderedSeconds: seconds(reordered.length),
    reorders: runsOf(reordered),
    outsideSeconds: seconds(outside),
    holes: holesOf(seen, window),
  };
}
