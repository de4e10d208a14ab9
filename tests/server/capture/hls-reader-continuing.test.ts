import { afterAll, describe, expect, it } from 'vitest';
import { createEgressPin } from '../../../recorder/egress-guard';
import { SegmentLedger } from '../../../recorder/hls-ledger';
import type { MediaSegment } from '../../../recorder/hls-playlist';
import { readHls } from '../../../recorder/hls-reader';
import { Pause } from '../../../recorder/recorder-window';
import { startFidelityOrigin, type FidelityOrigin } from '../../../testkit/fidelity-origin';
import { SEGMENT_SECONDS } from '../../../testkit/numbered-stream';
import { scaled } from '../../../testkit/time-scale';

// PostgreSQL pass: skipped: the segment reader against a live loopback origin, no database

/*
 * The segment reader when it fell behind its playlist, against a live origin whose truth is known (a
 * sliding playlist of 6 two-second segments, 20 published before the reading, 404 for what left it):
 * it goes on from what the playlist still lists and does not ask for each segment that left it.
 */

const origins: FidelityOrigin[] = [];
afterAll(async () => {
  for (const origin of origins) await origin.close();
});

interface Written {
  sequence: number;
  continuous: boolean;
}

/** Reads `seconds` of a fresh origin; `holdFirstWriteMs` holds the first write up (a busy recorder). */
async function read(options: { seconds: number; holdFirstWriteMs?: number }) {
  // Like a CDN's, a segment that left the playlist answers 404.
  const origin = await startFidelityOrigin({
    minutes: 2,
    prePublishSegments: 20,
    faults: [{ kind: 'segment_expiry', at: 0, seconds: 3600 }],
  });
  origins.push(origin);
  const window = { start: Date.now() - 60_000, end: Date.now() + options.seconds * 1000 };
  const ledger = new SegmentLedger(null);
  const written: Written[] = [];
  const pause = new Pause();
  await readHls({
    url: origin.url,
    pin: createEgressPin({ allowPrivate: true, trustedHosts: [] }),
    height: 180,
    window,
    ledger,
    sink: {
      write: async (segment: MediaSegment, _bytes: Uint8Array, continuous: boolean) => {
        if (written.length === 0 && options.holdFirstWriteMs) await pause.for(options.holdFirstWriteMs);
        written.push({ sequence: segment.sequence, continuous });
        return written.filter((w) => !w.continuous).length;
      },
    },
    pause,
    stopped: () => false,
    log: () => undefined,
    progressed: () => undefined,
    persist: () => undefined,
  });
  return { origin, ledger, written, fetched: [...origin.requests.segmentFetches.keys()].sort((a, b) => a - b) };
}

describe('the HLS segment reader behind its playlist', () => {
  it.concurrent(
    'reads the playlist again at the first segment that left it and goes on from the oldest listed: one 404, one break',
    { timeout: scaled(90_000) },
    async () => {
      // A first reading takes the window's backlog (14-19); the first write holds the reader up for longer than the
      // playlist spans (6 segments of 2 s), so the rest of that reading's list has left the playlist by then.
      const { origin, ledger, written } = await read({ seconds: 20, holdFirstWriteMs: 14_000 });
      expect(origin.requests.byStatus[404], 'one segment answered 404, not each of the list').toBe(1);
      expect(ledger.lost).toHaveLength(1);
      const breaks = written.filter((w) => !w.continuous);
      // The first write, and the one after the jump: one new run, not one per segment missed.
      expect(breaks).toHaveLength(2);
      const [, jump] = breaks;
      const after = written.slice(written.indexOf(jump));
      expect(after.map((w) => w.sequence)).toEqual(after.map((_, i) => jump.sequence + i));
      expect(ledger.lost[0].seconds).toBe((jump.sequence - written[0].sequence - 1) * SEGMENT_SECONDS);
    },
  );
});
