import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFidelityOrigin, type FidelityOrigin, type FidelityOriginOptions } from '../../../testkit/fidelity-origin';
import { compareWithTruth, readFrameIndices } from '../../../testkit/frame-decoder';
import { ManualClock } from '../../../testkit/manual-clock';
import { numberedStream } from '../../../testkit/numbered-stream';
import { waitFor } from '../../../testkit/wait';
import { scaled } from '../../../testkit/time-scale';

/*
 * The fidelity lab's own proof: the decoder reads the origin's frames back exactly, before and after
 * a transcode like the recorder's, and every scripted fault happens on the wire. The origins run on a
 * manual clock, so a fault minutes into a broadcast is reached at once and exactly.
 */

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fidelity-lab-'));
const origins: FidelityOrigin[] = [];
afterAll(async () => {
  await Promise.all(origins.map((origin) => origin.close()));
  fs.rmSync(work, { recursive: true, force: true });
});

/** An origin of the 1-minute programme on a manual clock started at its broadcast's start (with any pre-published segments behind it). */
async function origin(
  options: Omit<FidelityOriginOptions, 'minutes' | 'clock'>,
): Promise<{ origin: FidelityOrigin; clock: ManualClock }> {
  const clock = new ManualClock('2026-11-27T11:00:00Z');
  const started = await startFidelityOrigin({ minutes: 1, clock, ...options });
  origins.push(started);
  return { origin: started, clock };
}

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
};
const playlistOf = async (origin: FidelityOrigin) => {
  const { status, body } = await get(origin.url);
  expect(status, body.toString()).toBe(200);
  return body.toString();
};
const segmentUrl = (origin: FidelityOrigin, name: string) => new URL(name, origin.url).toString();
const listedNames = (playlist: string) => playlist.split('\n').filter((line) => line.endsWith('.ts'));

/** Fetches every segment the playlist lists, in order, and writes them joined as one MPEG-TS file. */
async function joinListed(origin: FidelityOrigin, name: string): Promise<string> {
  const bodies: Buffer[] = [];
  for (const segment of listedNames(await playlistOf(origin))) {
    const { status, body } = await get(segmentUrl(origin, segment));
    expect(status).toBe(200);
    bodies.push(body);
  }
  const file = path.join(work, name);
  fs.writeFileSync(file, Buffer.concat(bodies));
  return file;
}

const ffmpeg = (args: string[]) => {
  const result = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], {
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
};

/**
 * The recorder's treatment (recorder/ffmpeg-args.ts): scaled to fit and letterboxed, x264
 * veryfast at crf 23, AAC, written as MPEG-TS pieces and joined into an MP4 without re-encoding.
 */
function transcodeLikeRecorder(input: string, width: number, height: number): string {
  const piece = path.join(work, `piece-${width}x${height}.ts`);
  const output = path.join(work, `recording-${width}x${height}.mp4`);
  ffmpeg([
    '-i',
    input,
    '-vf',
    `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-force_key_frames',
    'expr:gte(t,n_forced*2)',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-f',
    'mpegts',
    piece,
  ]);
  ffmpeg(['-i', piece, '-map', '0', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', output]);
  return output;
}

const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

describe('the numbered programme read back', () => {
  it(
    "reads the origin's segments, fetched over HTTP and joined, as every frame once and in order",
    { timeout: scaled(60_000) },
    async () => {
      const { origin: o } = await origin({ playlistType: 'event', prePublishSegments: 30 });
      const file = await joinListed(o, 'joined.ts');
      const indices = await readFrameIndices(file);
      const truth = o.truth();
      expect(truth.segments).toHaveLength(30);
      expect(indices).toEqual(truth.segments.flatMap((s) => range(s.firstFrame, s.lastFrame)));
      expect(indices).toEqual(range(0, 1499));
      const report = compareWithTruth(indices, o.window(truth.startedAt, truth.startedAt + 60_000));
      expect(report).toMatchObject({
        framesRead: 1500,
        unreadable: 0,
        keptSeconds: 60,
        lostSeconds: 0,
        repeatedSeconds: 0,
        reorderedSeconds: 0,
        outsideSeconds: 0,
        holes: [],
      });
      expect(o.requests.segmentFetches.size).toBe(30);
      expect([...o.requests.segmentFetches.values()].every((count) => count === 1)).toBe(true);
    },
  );

  it.each([
    [1280, 720],
    // 4:3: the 16:9 picture is letterboxed inside it.
    [320, 240],
  ])(
    "reads a transcode like the recorder's at %ix%i as the same frames",
    { timeout: scaled(90_000) },
    async (width, height) => {
      const { origin: o } = await origin({ dvrSegments: 4, prePublishSegments: 4 });
      const recording = transcodeLikeRecorder(await joinListed(o, `source-${width}.ts`), width, height);
      expect(await readFrameIndices(recording)).toEqual(range(0, 199));
    },
  );

  it('reads a damaged frame as unreadable, never as another index', { timeout: scaled(60_000) }, async () => {
    const [first] = numberedStream(1).segments;
    const damaged = path.join(work, 'damaged.ts');
    // Frames 10-12: a grey square on block 0. Frames 30-31: block 1 (white in both) painted black, a wrong but clean bit.
    ffmpeg([
      '-i',
      first.file,
      '-vf',
      "drawbox=x=10:y=8:w=20:h=20:color=gray:t=fill:enable='between(n,10,12)',drawbox=x=40:y=0:w=40:h=36:color=black:t=fill:enable='between(n,30,31)'",
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-f',
      'mpegts',
      damaged,
    ]);
    const indices = await readFrameIndices(damaged);
    expect(indices).toEqual(range(0, 49).map((i) => ([10, 11, 12, 30, 31].includes(i) ? null : i)));
  });

  it(
    'finds losses, repeats and reorders where they are, and tells the unavailable from the lost',
    { timeout: scaled(60_000) },
    async () => {
      const { segments } = numberedStream(1);
      // Segments 0-3, 2 again (a join behind), 5, 6, then 4 late, 8; 7 and 9 missing.
      const order = [0, 1, 2, 3, 2, 5, 6, 4, 8];
      const file = path.join(work, 'shuffled.ts');
      fs.writeFileSync(file, Buffer.concat(order.map((k) => fs.readFileSync(segments[k].file))));
      const broadcastAt = (frame: number) => 1_000_000 + frame * 40;
      // The window spans segments 0-9; the origin never offered segment 9.
      const report = compareWithTruth(await readFrameIndices(file), {
        from: broadcastAt(0),
        to: broadcastAt(500),
        frames: { first: 0, last: 499 },
        unavailable: [{ first: 450, last: 499 }],
        broadcastAt,
      });
      expect(report).toMatchObject({
        framesRead: 450,
        unreadable: 0,
        keptSeconds: 16,
        lostSeconds: 4,
        lostByUsSeconds: 2,
        repeatedSeconds: 2,
        reorderedSeconds: 2,
        outsideSeconds: 0,
      });
      expect(report.losses).toEqual([
        {
          first: 350,
          last: 399,
          seconds: 2,
          atRecordingSecond: 16,
          broadcastFrom: broadcastAt(350),
          broadcastTo: broadcastAt(400),
          unavailableFrames: 0,
        },
        // Nothing follows the last hole: it shows at the end of the recording.
        {
          first: 450,
          last: 499,
          seconds: 2,
          atRecordingSecond: 18,
          broadcastFrom: broadcastAt(450),
          broadcastTo: broadcastAt(500),
          unavailableFrames: 50,
        },
      ]);
      // The window's stretches without a kept frame on the air: the two holes (a frame is 40 ms long).
      expect(report.holes).toEqual([
        { from: broadcastAt(350), to: broadcastAt(400) },
        { from: broadcastAt(450), to: broadcastAt(500) },
      ]);
      expect(report.repeats).toEqual([{ first: 100, last: 149, seconds: 2, atRecordingSecond: 8 }]);
      expect(report.reorders).toEqual([{ first: 200, last: 249, seconds: 2, atRecordingSecond: 14 }]);
    },
  );
});

describe("the fidelity origin's faults, on the wire", () => {
  it('late start: every request answers 404 until the broadcast starts, then the first segment is live', async () => {
    const { origin: o, clock } = await origin({ faults: [{ kind: 'late_start', at: 10 }] });
    expect((await get(o.url)).status).toBe(404);
    expect((await get(segmentUrl(o, 'seg0.ts'))).status).toBe(404);
    clock.advance(11_900);
    expect((await get(o.url)).status).toBe(404);
    clock.advance(100);
    expect(listedNames(await playlistOf(o))).toEqual(['seg0.ts']);
    expect((await get(segmentUrl(o, 'seg0.ts'))).status).toBe(200);
    const truth = o.truth();
    expect(truth.segments[0]).toMatchObject({ publishedAt: truth.startedAt + 12_000, offered: true });
    // Nothing existed before the start: the late start made no content unavailable.
    expect(truth.faults[0]).toMatchObject({ unavailable: [], unavailableSeconds: 0 });
    expect(o.window(truth.startedAt, truth.startedAt + 12_000).frames).toEqual({ first: 0, last: 49 });
    expect(o.requests.byStatus).toEqual({ 404: 3, 200: 2 });
  });

  it('playlist 404: the playlist answers 404 for the interval while listed segments still answer; what slid out meanwhile was never offered', async () => {
    const { origin: o, clock } = await origin({
      prePublishSegments: 6,
      faults: [{ kind: 'playlist_404', at: 13, seconds: 20 }],
    });
    expect((await get(o.url)).status).toBe(200);
    clock.advance(1000);
    expect((await get(o.url)).status).toBe(404);
    expect((await get(segmentUrl(o, 'seg5.ts'))).status).toBe(200);
    clock.advance(19_900);
    expect((await get(o.url)).status).toBe(404);
    clock.advance(100);
    // Back after 20 s: 16 segments published, the last 6 listed; 6 to 9 came and went unseen.
    expect(listedNames(await playlistOf(o))).toEqual(range(10, 15).map((k) => `seg${k}.ts`));
    const truth = o.truth();
    expect(truth.segments.map((s) => s.offered)).toEqual(range(0, 15).map((k) => k < 6 || k >= 10));
    expect(truth.faults[0]).toMatchObject({
      from: truth.startedAt + 13_000,
      to: truth.startedAt + 33_000,
      unavailable: [{ first: 300, last: 499 }],
      unavailableSeconds: 8,
    });
    expect(o.window(truth.startedAt + 10_000, truth.startedAt + 30_000)).toMatchObject({
      frames: { first: 250, last: 749 },
      unavailable: [{ first: 300, last: 499 }],
    });
    // What a client could fetch: segments 0-5 just before the drop, nothing during it, 10-15 at its end.
    expect([12_999, 13_000, 32_999, 33_000].map((ms) => o.offeredAt(truth.startedAt + ms))).toEqual([
      { first: 0, last: 299 },
      null,
      null,
      { first: 500, last: 799 },
    ]);
  });

  it('a client polling the playlist every second sees exactly the segments the truth says were offered', async () => {
    const holdEnds = 55;
    const { origin: o, clock } = await origin({
      prePublishSegments: 3,
      faults: [
        { kind: 'playlist_404', at: 10, seconds: 17 },
        { kind: 'held_open', at: 40, seconds: holdEnds - 40 },
      ],
    });
    const seen = new Set<string>();
    // One poll a second; a held poll waits for the hold's end, and the next poll follows its answer.
    while (o.secondsSinceStart() < 70) {
      clock.advance(1000);
      const held = o.requests.held;
      let answer: { status: number; body: Buffer } | undefined;
      const poll = get(o.url).then((a) => (answer = a));
      await waitFor(() => answer ?? o.requests.held > held, 'the poll to be answered or held', 5000, 5);
      if (!answer) clock.advance((holdEnds - o.secondsSinceStart()) * 1000);
      const { status, body } = await poll;
      if (status === 200) for (const name of listedNames(body.toString())) seen.add(name);
    }
    const offered = o
      .truth()
      .segments.filter((s) => s.offered)
      .map((s) => `seg${s.sequence}.ts`);
    expect([...seen].sort()).toEqual(offered.sort());
    expect(o.truth().segments.length - offered.length).toBeGreaterThan(0);
  });

  it('held open: a request in the interval gets not a byte until the interval ends, then its answer', async () => {
    const { origin: o, clock } = await origin({
      prePublishSegments: 6,
      faults: [{ kind: 'held_open', at: 13, seconds: 30 }],
    });
    clock.advance(1000);
    let answered = false;
    const playlist = get(o.url).then((answer) => {
      answered = true;
      return answer;
    });
    const segment = get(segmentUrl(o, 'seg5.ts'));
    await waitFor(() => o.requests.held === 2, 'both requests to be held', 10_000, 10);
    expect(answered).toBe(false);
    clock.advance(30_000);
    const { status, body } = await playlist;
    expect(status).toBe(200);
    // The answer of the moment the hold ends: 15 segments published meanwhile.
    expect(listedNames(body.toString())).toEqual(range(15, 20).map((k) => `seg${k}.ts`));
    expect((await segment).status).toBe(200);
    expect(o.truth().faults[0].unavailableSeconds).toBe(18);
  });

  it(
    'encoder restart in place: the media sequence starts again at 0 after a discontinuity, and the content carries on',
    { timeout: scaled(30_000) },
    async () => {
      const { origin: o, clock } = await origin({
        prePublishSegments: 10,
        programDateTime: true,
        faults: [{ kind: 'encoder_restart', at: 21 }],
      });
      const before = await playlistOf(o);
      expect(before).toContain('#EXT-X-MEDIA-SEQUENCE:4\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n');
      expect(before).not.toContain('#EXT-X-DISCONTINUITY\n');
      clock.advance(2000);
      const after = await playlistOf(o);
      const startedAt = o.truth().startedAt;
      expect(after).toBe(
        [
          '#EXTM3U',
          '#EXT-X-VERSION:3',
          '#EXT-X-TARGETDURATION:2',
          '#EXT-X-MEDIA-SEQUENCE:0',
          '#EXT-X-DISCONTINUITY-SEQUENCE:0',
          '#EXT-X-DISCONTINUITY',
          `#EXT-X-PROGRAM-DATE-TIME:${new Date(startedAt + 20_000).toISOString()}`,
          '#EXTINF:2.000000,',
          'seg0.ts',
          '',
        ].join('\n'),
      );
      // seg0.ts is now the segment after the last one of the first run: frames 500-549.
      const { body } = await get(segmentUrl(o, 'seg0.ts'));
      const file = path.join(work, 'restart-seg0.ts');
      fs.writeFileSync(file, body);
      expect(await readFrameIndices(file)).toEqual(range(500, 549));
      expect(
        o
          .truth()
          .segments.slice(9)
          .map((s) => ({ index: s.index, run: s.run, sequence: s.sequence })),
      ).toEqual([
        { index: 9, run: 0, sequence: 9 },
        { index: 10, run: 1, sequence: 0 },
      ]);
      clock.advance(12_000);
      // The new run's first segment slid out of the list: its discontinuity is counted in the header.
      expect(await playlistOf(o)).toContain(
        '#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n#EXT-X-PROGRAM-DATE-TIME',
      );
    },
  );

  it('encoder restart with a pause: nothing is published for the pause, then the new numbering carries on the programme', async () => {
    const { origin: o, clock } = await origin({
      prePublishSegments: 10,
      faults: [{ kind: 'encoder_restart', at: 21, pause: 4 }],
    });
    // The segment in progress at 21 s (frames 500-549) was due at 22 s: the 4 s pause puts it at 26 s, as seq 0.
    clock.advance(5900);
    expect(listedNames(await playlistOf(o)).at(-1)).toBe('seg9.ts');
    clock.advance(100);
    expect(listedNames(await playlistOf(o))).toEqual(['seg0.ts']);
    const truth = o.truth();
    expect(truth.segments[10]).toMatchObject({ run: 1, sequence: 0, publishedAt: truth.startedAt + 26_000 });
    // Frame 500 was on the air at 20 s, frame 550 (a second after the pause began at 21 s) at 26 s.
    const window = o.window(truth.startedAt, truth.startedAt + 30_000);
    expect([500, 550].map((f) => window.broadcastAt(f) - truth.startedAt)).toEqual([20_000, 26_000]);
    expect(truth.faults[0]).toMatchObject({ unavailableSeconds: 0 });
  });

  it('stale playlist: the playlist answers as it was for the interval while segments are made, then lists them all', async () => {
    const { origin: o, clock } = await origin({
      prePublishSegments: 6,
      dvrSegments: 30,
      faults: [{ kind: 'stale_playlist', at: 13, seconds: 20 }],
    });
    clock.advance(1000);
    const frozen = await playlistOf(o);
    clock.advance(19_900);
    // Ten segments made meanwhile answer, yet the playlist still lists the six of the interval's start.
    expect(await playlistOf(o)).toBe(frozen);
    expect(listedNames(frozen)).toEqual(range(0, 5).map((k) => `seg${k}.ts`));
    expect((await get(segmentUrl(o, 'seg12.ts'))).status).toBe(200);
    clock.advance(100);
    expect(listedNames(await playlistOf(o))).toEqual(range(0, 15).map((k) => `seg${k}.ts`));
    // All of it was offered: a DVR list that caught up makes nothing unavailable.
    expect(o.truth().segments.every((s) => s.offered)).toBe(true);
    expect(o.truth().faults[0]).toMatchObject({ unavailableSeconds: 0 });
  });

  it('slow origin: segments are published at 0.7x real time during the interval', async () => {
    const { origin: o, clock } = await origin({
      prePublishSegments: 5,
      faults: [{ kind: 'slow_origin', at: 10, seconds: 20 }],
    });
    clock.advance(2800);
    expect(listedNames(await playlistOf(o)).at(-1)).toBe('seg4.ts');
    clock.advance(100);
    expect(listedNames(await playlistOf(o)).at(-1)).toBe('seg5.ts');
    const truth = o.truth();
    expect(truth.segments[5].publishedAt - truth.startedAt).toBeCloseTo(10_000 + 2000 / 0.7, 3);
    expect(truth.faults[0].unavailableSeconds).toBe(0);
  });

  it('segment expiry: segments out of the playlist answer 404 during the interval, and only then', async () => {
    const { origin: o, clock } = await origin({
      prePublishSegments: 10,
      faults: [{ kind: 'segment_expiry', at: 20, seconds: 10 }],
    });
    expect(listedNames(await playlistOf(o))[0]).toBe('seg4.ts');
    expect((await get(segmentUrl(o, 'seg3.ts'))).status).toBe(404);
    expect((await get(segmentUrl(o, 'seg4.ts'))).status).toBe(200);
    clock.advance(10_000);
    expect((await get(segmentUrl(o, 'seg3.ts'))).status).toBe(200);
    expect([...o.requests.segmentFetches]).toEqual([
      [4, 1],
      [3, 1],
    ]);
  });
});
