import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFfmpegArgs, FED_INPUT } from '../../../recorder/ffmpeg-args';
import { localFolderSink, PieceStore } from '../../../recorder/recorder-pieces';
import { DEFAULT_RECORDER_SETTINGS, type RecorderConfig } from '../../../recorder/recorder-state';
import { fitsRecording, probeStreams, sourceFits } from '../../../recorder/source-fit';
import { FRAME_CODE, numberedStream } from '../../../testkit/numbered-stream';

// PostgreSQL pass: skipped: ffprobe and ffmpeg on local media, no database

const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'source-fits-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** 2 s of MPEG-TS from ffmpeg's test sources: `video` (lavfi, with its own options) or none, and `audio` codec. */
async function mediaFile(name: string, video: string | null, audio: string): Promise<string> {
  const file = path.join(work, name);
  await promisify(execFile)('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ...(video ? ['-f', 'lavfi', '-i', video] : []),
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '2'],
    ...(video ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25'] : []),
    ...['-c:a', audio, '-f', 'mpegts', '-y', file],
  ]);
  return file;
}

describe('recording the source as it is', () => {
  const segment = new Uint8Array(fs.readFileSync(numberedStream(1).segments[0].file));

  it('copies a stream that is already H.264 and AAC at the configured frame size', async () => {
    expect(
      await sourceFits({ ffprobePath: FFPROBE, width: FRAME_CODE.width, height: FRAME_CODE.height }, segment),
    ).toBe(true);
  });

  it('transcodes one of another size, and anything ffprobe cannot read', async () => {
    expect(await sourceFits({ ffprobePath: FFPROBE, width: 1280, height: 720 }, segment)).toBe(false);
    expect(
      await sourceFits(
        { ffprobePath: FFPROBE, width: FRAME_CODE.width, height: FRAME_CODE.height },
        new TextEncoder().encode('<html>404</html>'),
      ),
    ).toBe(false);
  });

  it('keeps a radio stream’s MP3 or AAC as it is, and transcodes other audio', async () => {
    const config = { ffprobePath: FFPROBE, width: 1280, height: 720 };
    for (const [codec, fits] of [
      ['libmp3lame', true],
      ['aac', true],
      ['mp2', false],
    ] as const) {
      const file = await mediaFile(`radio-${codec}.ts`, null, codec);
      expect(await sourceFits(config, new Uint8Array(fs.readFileSync(file))), codec).toBe(fits);
    }
    expect(fitsRecording([], config)).toBe(false);
  });

  it('transcodes an anamorphic source of the configured size: its pixels are not square', async () => {
    // 720x576 shown 16:9 (PAL widescreen): its pixels are 64:45.
    const file = await mediaFile('anamorphic.ts', 'testsrc2=size=720x576:rate=25,setsar=64/45', 'aac');
    const config = { ffprobePath: FFPROBE, width: 720, height: 576 };
    expect(await probeStreams(config, { bytes: new Uint8Array(fs.readFileSync(file)) })).toContainEqual(
      expect.objectContaining({ codec_type: 'video', width: 720, height: 576, sample_aspect_ratio: '64:45' }),
    );
    expect(await sourceFits(config, new Uint8Array(fs.readFileSync(file)))).toBe(false);
  });

  it('transcodes an anamorphic 16:9 source into a 16:9 frame filled edge to edge, with square pixels', async () => {
    const file = await mediaFile('anamorphic-in.ts', 'testsrc2=size=720x576:rate=25,setsar=64/45', 'aac');
    const config = {
      width: 1280,
      height: 720,
      settings: { ...DEFAULT_RECORDER_SETTINGS, preset: 'ultrafast', segmentSeconds: 2 },
    } as RecorderConfig;
    const pieces = new PieceStore(path.join(work, 'pieces'), localFolderSink);
    pieces.prepare();
    const ffmpeg = spawn('ffmpeg', buildFfmpegArgs(config, FED_INPUT, pieces.outputFor(1)), {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    ffmpeg.stdin.end(fs.readFileSync(file));
    await new Promise((resolve) => ffmpeg.once('exit', resolve));
    const piece = path.join(
      work,
      'pieces',
      fs.readdirSync(path.join(work, 'pieces')).find((f) => f.endsWith('.ts'))!,
    );
    const [video] = (await probeStreams(config, { bytes: new Uint8Array(fs.readFileSync(piece)) })) ?? [];
    expect(video).toMatchObject({ width: 1280, height: 720, sample_aspect_ratio: '1:1' });
    // No bars: ffmpeg's cropdetect finds the picture reaching every edge (a 5:4 fit would leave 160 px each side).
    const { stderr } = await promisify(execFile)('ffmpeg', [
      ...[
        '-hide_banner',
        '-nostdin',
        '-i',
        piece,
        '-vf',
        'cropdetect=limit=16:round=2',
        '-frames:v',
        '5',
        '-f',
        'null',
        '-',
      ],
    ]);
    expect(stderr).toMatch(/crop=1280:720:0:0/);
  });
});
