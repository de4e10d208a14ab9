import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startFidelityRtmp, type FidelityRtmp } from '../../../testkit/fidelity-rtmp';
import { readFrameIndices } from '../../../testkit/frame-decoder';
import { FRAME_CODE } from '../../../testkit/numbered-stream';
import { scaled } from '../../../testkit/time-scale';
import { pause } from '../../../testkit/wait';

/*
 * The fidelity lab's RTMP origin, proven as fidelity-lab.test.ts proves the HLS one: a client reads the
 * numbered programme live over RTMP until the origin drops, another after it is back; the frames they
 * hold are the ones its truth says were played, when it says, and the drop's frames were played to no one.
 */

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fidelity-rtmp-test-'));
let origin: FidelityRtmp | undefined;
afterAll(async () => {
  await origin?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Records the origin with ffmpeg as a client for at most `seconds`; a dropped connection just ends it. */
async function record(url: string, file: string, seconds: number): Promise<void> {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', url],
    ...['-c', 'copy', '-t', String(seconds), file],
  ]).catch(() => undefined);
}

describe("the fidelity lab's RTMP origin", () => {
  it(
    'plays the programme live to each client, and nothing while it is off the air',
    { timeout: scaled(60_000) },
    async () => {
      origin = await startFidelityRtmp([{ kind: 'rtmp_drop', at: 8, seconds: 5 }], 1);
      const { startedAt } = origin;
      const before = path.join(work, 'before.ts');
      const after = path.join(work, 'after.ts');
      // Connected until the drop ends its connection.
      await record(origin.url, before, 30);
      const droppedAt = Date.now() - startedAt;
      expect(droppedAt).toBeGreaterThan(7500);
      expect(droppedAt).toBeLessThan(scaled(10_000));
      await pause(startedAt + 14_000 - Date.now());
      await record(origin.url, after, 4);

      const [drop] = origin.faults();
      expect(drop.fault.kind).toBe('rtmp_drop');
      expect(drop.to - drop.from).toBeGreaterThanOrEqual(5000);
      const window = origin.window(startedAt, Date.now());
      const heldBefore = await readFrameIndices(before);
      const heldAfter = await readFrameIndices(after);
      expect([...heldBefore, ...heldAfter]).not.toContain(null);
      const firstBefore = heldBefore[0] ?? -1;
      const lastBefore = heldBefore.at(-1) ?? -1;
      const firstAfter = heldAfter[0] ?? -1;
      // Each client holds a run of the programme from where its listener started (a client slow to start
      // on a busy machine, 2 s once, joins the live programme later), each frame once.
      expect(firstBefore).toBeGreaterThanOrEqual(0);
      expect(heldBefore).toEqual(Array.from({ length: heldBefore.length }, (_, i) => firstBefore + i));
      expect(heldAfter).toEqual(Array.from({ length: heldAfter.length }, (_, i) => firstAfter + i));
      // What neither holds between them is what the truth says no listener played (to a frame's timing
      // of the kill: what was in flight when the origin dropped), and it is the drop's.
      const gap = window.unavailable.find((r) => r.first > 0 && r.last < firstAfter);
      expect(gap, JSON.stringify(window.unavailable)).toBeDefined();
      expect(Math.abs((gap?.first ?? 0) - (lastBefore + 1))).toBeLessThanOrEqual(FRAME_CODE.fps / 2);
      expect((gap?.last ?? 0) + 1).toBe(firstAfter);
      expect(Math.abs(window.broadcastAt(gap?.first ?? 0) - drop.from)).toBeLessThan(1000);
      // Played live: the first frame after the drop is on the air within a few seconds of the origin coming back.
      expect(window.broadcastAt(firstAfter)).toBeGreaterThanOrEqual(drop.to);
      expect(window.broadcastAt(firstAfter) - drop.to).toBeLessThan(scaled(3000));
    },
  );
});
