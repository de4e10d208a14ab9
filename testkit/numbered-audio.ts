import { spawn } from 'node:child_process';
import { FRAME_CODE } from './numbered-stream';

/**
 * A radio programme whose every second says its own index, so an audio-only recording of it (a radio
 * mount's MP3 kept as it is) can be read back into what it holds, as testkit/frame-decoder.ts does for
 * pictures. Second n sounds two tones at once: one of BANK low frequencies for n mod BANK, and one of
 * BANK high frequencies for floor(n / BANK) mod BANK, so BANK² seconds (17 minutes) are told apart.
 * Read back 10 ms at a time, each stretch of a second is placed inside its second by the tone changes
 * around it, and given as the indices of the picture frames (25 a second) it spans, so a recording of
 * the radio is scored with the same arithmetic as one of the numbered pictures.
 */
export const TONE_CODE = {
  bank: 32,
  /** Hz of the lowest tone of each bank, and between neighbouring tones (a 10 ms block resolves 100 Hz). */
  lowBase: 500,
  highBase: 6000,
  step: 150,
  sampleRate: 44100,
} as const;

/** Seconds the programme can run before its indices repeat. */
export const TONE_PERIOD_SECONDS = TONE_CODE.bank * TONE_CODE.bank;

const BLOCK_SAMPLES = TONE_CODE.sampleRate / 100;
const BLOCK_MS = 10;
/** A block whose strongest tone of a bank is not this many times the next one's power is unreadable (a tone change inside it). */
const CLEAR_RATIO = 4;

/** ffmpeg's lavfi source of the programme (as `-f lavfi -i <this>`), a real-time radio's worth of it from its second 0. */
export function numberedToneSource(): string {
  const { bank, lowBase, highBase, step, sampleRate } = TONE_CODE;
  const low = `(${lowBase}+${step}*mod(floor(t),${bank}))`;
  const high = `(${highBase}+${step}*mod(floor(floor(t)/${bank}),${bank}))`;
  const expression = `0.4*sin(2*PI*${low}*t)+0.4*sin(2*PI*${high}*t)`;
  return `aevalsrc=exprs='${expression.replaceAll(',', '\\,')}':s=${sampleRate}`;
}

const frequencies = (base: number) => Array.from({ length: TONE_CODE.bank }, (_, k) => base + TONE_CODE.step * k);
const LOW = frequencies(TONE_CODE.lowBase);
const HIGH = frequencies(TONE_CODE.highBase);

/** Goertzel power of each frequency in one block of samples. */
function powers(block: Float32Array, bank: number[]): number[] {
  return bank.map((frequency) => {
    const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / TONE_CODE.sampleRate);
    let previous = 0;
    let beforePrevious = 0;
    for (const sample of block) {
      const current = sample + coefficient * previous - beforePrevious;
      beforePrevious = previous;
      previous = current;
    }
    return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  });
}

/** The tone of a bank that clearly dominates the block, or null. */
function clearTone(block: Float32Array, bank: number[]): number | null {
  const power = powers(block, bank);
  const order = power.map((p, k) => ({ p, k })).sort((a, b) => b.p - a.p);
  return order[0].p > CLEAR_RATIO * order[1].p && order[0].p > 1e-3 ? order[0].k : null;
}

/** The second (mod the period) each 10 ms block of samples says, or null where it says none clearly. */
export function blockSeconds(samples: Float32Array): (number | null)[] {
  const seconds: (number | null)[] = [];
  for (let start = 0; start + BLOCK_SAMPLES <= samples.length; start += BLOCK_SAMPLES) {
    const block = samples.subarray(start, start + BLOCK_SAMPLES);
    const low = clearTone(block, LOW);
    const high = clearTone(block, HIGH);
    seconds.push(low === null || high === null ? null : low + TONE_CODE.bank * high);
  }
  return seconds;
}

interface Run {
  second: number;
  /** Block positions, first and last. */
  first: number;
  last: number;
}

/** Blocks apart two runs may be (unreadable blocks at a tone change between them) and still be neighbours. */
const NEIGHBOUR_BLOCKS = 3;
/**
 * A run this short that is neighbour to neither side is a misreading, not a stretch of programme: a
 * block across the join of a drop can take its low tone from one side and its high tone from the
 * other, and say a second up to half an hour away; read as kept, everything after it read as reordered
 * (25 s in one season). A real stretch of a second at a cut is as long as the cut leaves it, and one
 * under 30 ms beside no neighbour is less than a picture frame.
 */
const LONE_RUN_BLOCKS = 3;
const BLOCKS_PER_SECOND = 1000 / BLOCK_MS;

/**
 * Picture-frame indices (FRAME_CODE.fps a second) the blocks span, in order, each once where
 * consecutive blocks share a frame. A stretch of a second is placed from the tone change that begins
 * it (the previous second just before), else back from the one that ends it, else (cut at both ends)
 * from its second's start.
 */
export function framesOfBlocks(seconds: (number | null)[]): number[] {
  const read: Run[] = [];
  seconds.forEach((second, position) => {
    if (second === null) return;
    const last = read.at(-1);
    if (last && last.second === second && position - last.last <= NEIGHBOUR_BLOCKS) last.last = position;
    else read.push({ second, first: position, last: position });
  });
  const follows = (a: Run | undefined, b: Run | undefined) =>
    a !== undefined &&
    b !== undefined &&
    (a.second + 1) % TONE_PERIOD_SECONDS === b.second &&
    b.first - a.last <= NEIGHBOUR_BLOCKS;
  const runs = read.filter(
    (run, i) => run.last - run.first + 1 >= LONE_RUN_BLOCKS || follows(read[i - 1], run) || follows(run, read[i + 1]),
  );
  const frameMs = 1000 / FRAME_CODE.fps;
  const frames: number[] = [];
  runs.forEach((run, i) => {
    const fromStart = follows(runs[i - 1], run) || !follows(run, runs[i + 1]);
    for (let position = run.first; position <= run.last; position++) {
      const offsetMs = fromStart
        ? (position - run.first) * BLOCK_MS
        : (BLOCKS_PER_SECOND - (run.last + 1 - position)) * BLOCK_MS;
      const frame = run.second * FRAME_CODE.fps + Math.floor(Math.min(Math.max(offsetMs, 0), 999) / frameMs);
      if (frames.at(-1) !== frame) frames.push(frame);
    }
  });
  return frames;
}

/** The picture-frame indices an audio recording of the programme holds, in order (see framesOfBlocks). */
export async function readToneFrames(file: string): Promise<number[]> {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', file, '-map', '0:a:0'],
      ...['-ac', '1', '-ar', String(TONE_CODE.sampleRate), '-f', 'f32le', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const chunks: Buffer[] = [];
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`ffmpeg could not decode the audio of ${file}: ${errors}`);
  const bytes = Buffer.concat(chunks);
  // A copy: Float32Array needs its own aligned buffer.
  const samples = new Float32Array(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length - (bytes.length % 4)),
  );
  return framesOfBlocks(blockSeconds(samples));
}
