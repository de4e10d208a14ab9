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
 * The segment reader of a recorder that continues a recording whose recorder was lost with its server
 * (instances/continuation.ts), and of a reader that fell behind its playlist, against a live origin whose
 * truth is known (a sliding playlist of 6 two-second segments, 20 published before the reading): it
 * goes on from what the playlist still lists and never asks for a segment that left it.
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
async function read(options: { seconds: number; continuesAfter?: number | null; holdFirstWriteMs?: number }) {
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
      write: async (segment: MediaSegment, _bytes: Uint8Array, continuous: boolean, kept: (run: number) => void) => {
        if (written.length === 0 && options.holdFirstWriteMs) await pause.for(options.holdFirstWriteMs);
        written.push({ sequence: segment.sequence, continuous });
        const run = written.filter((w) => !w.continuous).length;
        kept(run);
        return run;
      },
    },
    pause,
    stopped: () => false,
    log: () => undefined,
    progressed: () => undefined,
    persist: () => undefined,
    ...(options.continuesAfter === undefined ? {} : { continuesAfter: options.continuesAfter }),
  });
  return { origin, ledger, written, fetched: [...origin.requests.segmentFetches.keys()].sort((a, b) => a - b) };
}

describe('the HLS segment reader of a continuing recorder', () => {
  it.concurrent(
    'goes on from two inside what the playlist still lists when the next one left it, the rest one loss',
    { timeout: scaled(60_000) },
    async () => {
      // Segments 0-19 are published; the playlist lists 14-19: 3-13 left it.
      const { origin, ledger, written, fetched } = await read({ seconds: 4, continuesAfter: 2 });
      const first = written[0].sequence;
      // Not 14, the oldest listed and the next to leave: two inside it.
      expect(first).toBeGreaterThanOrEqual(16);
      expect(fetched[0], 'no segment before the first kept is asked for').toBe(first);
      expect(origin.requests.byStatus[404] ?? 0).toBe(0);
      expect(ledger.lost).toEqual([
        expect.objectContaining({
          seconds: (first - 3) * SEGMENT_SECONDS,
          reason: expect.stringContaining(`3-${first - 1}`),
        }),
      ]);
      expect(written.map((w) => w.sequence)).toEqual(written.map((_, i) => first + i));
    },
  );

  it.concurrent(
    'goes on from the next segment when the playlist still lists it, losing nothing',
    { timeout: scaled(60_000) },
    async () => {
      const { ledger, written, fetched } = await read({ seconds: 4, continuesAfter: 16 });
      expect(written[0].sequence).toBe(17);
      expect(fetched[0]).toBe(17);
      expect(ledger.lost).toEqual([]);
    },
  );

  it.concurrent(
    'starts at the live edge when where the lost recorder stopped is not known',
    { timeout: scaled(60_000) },
    async () => {
      const { written, fetched, ledger } = await read({ seconds: 2, continuesAfter: null });
      // The newest listed at the first reading (19, or 20 if one more was published meanwhile), nothing before it.
      expect(written[0].sequence).toBeGreaterThanOrEqual(19);
      expect(fetched[0]).toBe(written[0].sequence);
      expect(ledger.lost).toEqual([]);
    },
  );
});

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
