import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startFidelityRadio, type FidelityRadio } from '../../../testkit/fidelity-radio';
import { numberedToneSource, readToneFrames } from '../../../testkit/numbered-audio';
import { FRAME_CODE } from '../../../testkit/numbered-stream';
import { scaled } from '../../../testkit/time-scale';
import { pause } from '../../../testkit/wait';

/*
 * The fidelity lab's radio, proven as fidelity-lab.test.ts proves its pictures: an MP3 of the numbered
 * tones, cut and joined as a recorder joins its pieces, reads back into the frames it holds, placed to
 * within an MP3 frame; and the live mount's drop is off the air for real and in its truth.
 */

const run = promisify(execFile);
const FRAME_MS = 1000 / FRAME_CODE.fps;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fidelity-radio-'));
let radio: FidelityRadio | undefined;
afterAll(async () => {
  await radio?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const ffmpeg = (...args: string[]) => run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args]);

/** Runs of consecutive frames, in seconds of programme: [from, to) each. */
function runsOf(frames: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const frame of frames) {
    const last = runs.at(-1);
    if (last && frame === last[1]) last[1] = frame + 1;
    else runs.push([frame, frame + 1]);
  }
  return runs.map(([from, to]) => [from / FRAME_CODE.fps, to / FRAME_CODE.fps]);
}

describe("the fidelity lab's radio", () => {
  it(
    'reads an MP3 of its tones, cut and joined, back into the seconds it holds',
    { timeout: scaled(60_000) },
    async () => {
      const whole = path.join(work, 'whole.mp3');
      await ffmpeg('-f', 'lavfi', '-i', numberedToneSource(), '-t', '40', '-c:a', 'libmp3lame', '-b:a', '128k', whole);
      const pieces = [
        { from: 3.5, seconds: 10 },
        { from: 25.3, seconds: 8 },
      ];
      const list = path.join(work, 'pieces.txt');
      for (const [i, piece] of pieces.entries())
        await ffmpeg(
          '-ss',
          String(piece.from),
          '-t',
          String(piece.seconds),
          '-i',
          whole,
          '-c',
          'copy',
          path.join(work, `${i}.mp3`),
        );
      fs.writeFileSync(list, pieces.map((_, i) => `file '${path.join(work, `${i}.mp3`)}'`).join('\n'));
      const joined = path.join(work, 'joined.mp3');
      await ffmpeg('-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', joined);

      const runs = runsOf(await readToneFrames(joined));
      expect(runs, JSON.stringify(runs)).toHaveLength(2);
      for (const [i, piece] of pieces.entries()) {
        // An MP3 frame is 26 ms, and a copy cuts on frames.
        expect(Math.abs(runs[i][0] - piece.from), JSON.stringify(runs)).toBeLessThanOrEqual(0.1);
        expect(Math.abs(runs[i][1] - (piece.from + piece.seconds)), JSON.stringify(runs)).toBeLessThanOrEqual(0.1);
      }
      expect(runsOf(await readToneFrames(whole))).toEqual([[0, 40]]);
    },
  );

  it(
    'goes off the air for its drop, and its truth says which frames no listener could have',
    { timeout: scaled(30_000) },
    async () => {
      radio = await startFidelityRadio([{ kind: 'radio_drop', at: 2, seconds: 2 }], 1);
      const before = await fetch(radio.url);
      expect(before.status).toBe(200);
      await before.body?.cancel();
      await pause(radio.startedAt + 2500 - Date.now());
      const during = await fetch(radio.url);
      expect(during.status).toBe(503);
      await pause(radio.startedAt + 4500 - Date.now());
      const after = await fetch(radio.url);
      expect(after.status).toBe(200);
      await after.body?.cancel();

      const [drop] = radio.faults();
      expect(drop.fault.kind).toBe('radio_drop');
      expect(Math.abs(drop.from - (radio.startedAt + 2000))).toBeLessThan(500);
      // Node's timers may fire a millisecond early as Date.now reads them.
      expect(drop.to - drop.from).toBeGreaterThanOrEqual(1995);
      // The truth is what the mount put on the air, so it is read once the window is over.
      await pause(radio.startedAt + 5500 - Date.now());
      const window = radio.window(radio.startedAt, radio.startedAt + 5000);
      // On the air as scheduled, to within the chunk the encoder's output last came in.
      expect(window.frames?.first).toBe(0);
      expect(window.frames?.last).toBeLessThanOrEqual(5 * FRAME_CODE.fps - 1);
      expect(window.frames?.last).toBeGreaterThanOrEqual(
        5 * FRAME_CODE.fps - 1 - Math.ceil(radio.latestMs() / FRAME_MS),
      );
      expect(radio.latestMs()).toBeLessThan(500);
      expect(window.unavailable).toEqual(drop.unavailable);
      const [unavailable] = drop.unavailable;
      expect(window.broadcastAt(unavailable.first)).toBeGreaterThanOrEqual(drop.from);
      expect(window.broadcastAt(unavailable.last + 1)).toBeGreaterThanOrEqual(drop.to);
      // The first frame after it came back went on the air with the chunk that held it.
      expect(window.broadcastAt(unavailable.last + 1) - drop.to).toBeLessThan(FRAME_MS + radio.latestMs());
    },
  );

  it(
    'puts in its truth what it put on the air: a programme held up on a busy machine is late there too',
    { timeout: scaled(30_000) },
    async () => {
      const held = await startFidelityRadio([], 0);
      try {
        await pause(held.startedAt + 1000 - Date.now());
        // This process held for 1.5 s (the mount lives in it, as in the season): nothing goes on the air meanwhile.
        const until = Date.now() + 1500;
        while (Date.now() < until);
        await pause(held.startedAt + 3000 - Date.now());
        const heldUp = held.window(held.startedAt, held.startedAt + 2000).frames;
        // By its schedule, two seconds' frames (0-49) were on the air by then; about one was.
        expect(heldUp?.last).toBeLessThan(1.3 * FRAME_CODE.fps);
        expect(held.latestMs()).toBeGreaterThan(1000);
      } finally {
        await held.close();
      }
    },
  );
});
