import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { faultFilters, type ContentFault } from './content-programmes';
import { madeOnce } from './made-once';

/**
 * A programme whose every video frame shows its own index, so a recording of it can be read back
 * into the frames it holds (testkit/frame-decoder.ts) and compared with what a stream offered.
 *
 * The picture is a grid of black or white blocks: the first INDEX_BITS blocks are the bits of the
 * frame index (least significant first), the next INDEX_BITS the bits of its complement. A block
 * misread after re-encoding breaks the pair, so a damaged frame reads as unreadable, never as another
 * index. Blocks of 40x36 (160x144 at 1280x720) survive a scale and x264 at crf 23 with room to spare.
 */
export const FRAME_CODE = {
  columns: 8,
  rows: 5,
  /** 2^20 frames: 11.6 hours at 25 fps. */
  indexBits: 20,
  width: 320,
  height: 180,
  fps: 25,
} as const;

/** The block's colour (true: white) in the frame of this index; blocks numbered row by row. */
export function blockIsWhite(frameIndex: number, block: number): boolean {
  const bit = block % FRAME_CODE.indexBits;
  const set = Math.floor(frameIndex / 2 ** bit) % 2 === 1;
  return block < FRAME_CODE.indexBits ? set : !set;
}

/** The same rule as blockIsWhite, for ffmpeg's geq on a picture of one pixel per block. */
function blockExpression(): string {
  const { columns, indexBits } = FRAME_CODE;
  const block = `(X+${columns}*Y)`;
  return `255*if(lt(${block},${indexBits}),gt(bitand(N,pow(2,${block})),0),eq(bitand(N,pow(2,${block}-${indexBits})),0))`;
}

export interface NumberedSegment {
  /** Position in the programme, from 0. */
  index: number;
  file: string;
  durationSeconds: number;
  firstFrame: number;
  lastFrame: number;
}

export interface NumberedStream {
  dir: string;
  segments: NumberedSegment[];
}

export const SEGMENT_SECONDS = 2;
/** Bumped whenever the picture or the cut changes, so a machine's cached copy is not reused. */
const FORMAT_VERSION = 2;
/**
 * The plain programme is encoded this many minutes at a time, and a shorter one is served from the start
 * of it: the server suite asks for 1 to 5 minutes, and a fresh machine encoded each length (15 minutes of
 * programme, 18 s of CPU) where one of 5 minutes (6 s) holds them all. A programme with a content fault is
 * encoded at its own length: its fault lies where its caller put it.
 */
const PLAIN_STEP_MINUTES = 5;

/**
 * The programme cut into HLS segments of 2 s (a key frame every second, 25 fps, 320x180, with a
 * 440 Hz AAC tone at 44.1 kHz as in testkit/capture.ts), `minutes` long. Encoded the first time it is
 * asked for (about 1 s of a core per minute) into a folder of os.tmpdir() named by its version and
 * length, once however many test processes ask at the same moment (testkit/made-once.ts). Without a
 * content fault it is the first `minutes` of a programme encoded in whole steps of PLAIN_STEP_MINUTES.
 */
export function numberedStream(minutes: number, content?: NumberedContentFault): NumberedStream {
  if (!Number.isInteger(minutes) || minutes < 1)
    throw new Error(`minutes must be a whole number of at least 1 (got ${minutes})`);
  if (content && !(Number.isInteger(content.from) && Number.isInteger(content.to) && content.from < content.to))
    throw new Error(`a content fault spans whole seconds, from before to (got ${content.from}-${content.to})`);
  const variant = content ? `-${content.fault}-${content.from}-${content.to}` : '';
  const encoded = content ? minutes : Math.ceil(minutes / PLAIN_STEP_MINUTES) * PLAIN_STEP_MINUTES;
  const dir = encode(
    path.join(os.tmpdir(), `capture-numbered-v${FORMAT_VERSION}-${encoded}m${variant}`),
    encoded,
    content,
  );
  return { dir, segments: readSegments(dir, encoded).slice(0, (minutes * 60) / SEGMENT_SECONDS) };
}

/**
 * A content fault of the numbered programme (testkit/content-programmes.ts), `from` to `to` seconds
 * into it: its sound muted, its picture frozen (the frame at `from` shown, with its index, until the one
 * at `to`: frozenFrames), or no sound track at all. A black picture would hide the frame indices.
 */
export interface NumberedContentFault {
  fault: Exclude<ContentFault, 'black'>;
  from: number;
  to: number;
}

/** The frames a frozen picture holds: the first one's picture is shown in the place of each. */
export function frozenFrames(content: NumberedContentFault): { first: number; last: number } | null {
  return content.fault === 'frozen'
    ? { first: content.from * FRAME_CODE.fps, last: content.to * FRAME_CODE.fps }
    : null;
}

function encode(dir: string, minutes: number, content: NumberedContentFault | undefined): string {
  const { columns, rows, width, height, fps } = FRAME_CODE;
  const { video, audio } = content ? faultFilters(content, fps) : { video: 'null', audio: 'anull' };
  const picture = `color=c=black:s=${columns}x${rows}:r=${fps},format=gray,geq=lum='${blockExpression().replaceAll(',', '\\,')}',scale=${width}:${height}:flags=neighbor,setsar=1,format=yuv420p`;
  return madeOnce(
    dir,
    'the numbered programme',
    (partial) => [
      'ffmpeg',
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-y',
      '-f',
      'lavfi',
      '-i',
      picture,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      ...['-filter_complex', `[0:v]${video}[v]${audio ? `;[1:a]${audio}[a]` : ''}`],
      ...['-map', '[v]', ...(audio ? ['-map', '[a]'] : [])],
      '-t',
      String(minutes * 60),
      // A key frame every second and nowhere else, so every segment holds exactly 2 s of frames.
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      String(fps),
      '-keyint_min',
      String(fps),
      '-sc_threshold',
      '0',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-f',
      'hls',
      '-hls_time',
      String(SEGMENT_SECONDS),
      '-hls_list_size',
      '0',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_filename',
      path.join(partial, 'seg%05d.ts'),
      path.join(partial, 'index.m3u8'),
    ],
    { folder: true },
  );
}

/** The segments the playlist lists, with the frames each holds (its duration times the frame rate). */
function readSegments(dir: string, minutes: number): NumberedSegment[] {
  const lines = fs.readFileSync(path.join(dir, 'index.m3u8'), 'utf8').split('\n');
  const segments: NumberedSegment[] = [];
  let nextFrame = 0;
  for (let i = 0; i < lines.length; i++) {
    const extinf = /^#EXTINF:([\d.]+),/.exec(lines[i]);
    if (!extinf) continue;
    const durationSeconds = Number(extinf[1]);
    const frames = Math.round(durationSeconds * FRAME_CODE.fps);
    segments.push({
      index: segments.length,
      file: path.join(dir, lines[i + 1].trim()),
      durationSeconds,
      firstFrame: nextFrame,
      lastFrame: nextFrame + frames - 1,
    });
    nextFrame += frames;
  }
  if (nextFrame !== minutes * 60 * FRAME_CODE.fps)
    throw new Error(
      `the numbered programme in ${dir} holds ${nextFrame} frames, not ${minutes * 60 * FRAME_CODE.fps}: remove the folder to encode it again`,
    );
  return segments;
}
