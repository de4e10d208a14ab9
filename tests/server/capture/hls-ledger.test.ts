import { describe, expect, it } from 'vitest';
import { ledgerCoverage, SegmentLedger } from '../../../recorder/hls-ledger';

const T0 = Date.parse('2026-11-27T11:40:00Z');
const at = (s: number) => T0 + s * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const window = { start: at(0), end: at(60) };

/** Keeps 2 s segments [from, to) seconds into the window, numbered from `sequence`, in `run`. */
function keep(ledger: SegmentLedger, from: number, to: number, sequence: number, run = 1): void {
  for (let s = from; s < to; s += 2) ledger.keep({ sequence: sequence++, seconds: 2, start: at(s), run });
}

describe('coverage from the segment ledger', () => {
  it('puts each hole down to the condition that overlaps it, and counts only what the stream offered as lost', () => {
    const ledger = new SegmentLedger(null);
    ledger.meet('not_live_yet', 'Stream not live yet (HTTP 404)', at(0));
    ledger.clear(at(6));
    keep(ledger, 6, 20, 0);
    ledger.meet('stream_dropped', 'Stream dropped (HTTP 503)', at(20));
    // The playlist moved past two segments before the stream came back.
    ledger.loseContent({ start: at(26), end: at(30), seconds: 4, reason: 'segments 7-8 left the playlist' });
    ledger.clear(at(30));
    keep(ledger, 30, 60, 9);
    const coverage = ledgerCoverage(ledger, window, window.end, iso);
    expect(coverage).toEqual({
      expectedSeconds: 60,
      coveredSeconds: 44,
      reconnects: 1,
      gaps: [
        { start: iso(at(0)), end: iso(at(6)), cause: 'not_live_yet', reason: 'Stream not live yet (HTTP 404)', content_lost_seconds: 0 },
        { start: iso(at(20)), end: iso(at(30)), cause: 'stream_dropped', reason: 'Stream dropped (HTTP 503)', content_lost_seconds: 4 },
      ],
    });
  });

  it('a recorder that was down lost what the stream offered meanwhile; a join shorter than 2 s is counted but not listed', () => {
    const ledger = new SegmentLedger(null);
    keep(ledger, 0, 20, 0);
    ledger.save(at(20));
    ledger.recorderStarted(at(31), window.start);
    keep(ledger, 31, 60.5, 20, 2);
    const coverage = ledgerCoverage(ledger, window, window.end, iso);
    expect(coverage.gaps).toEqual([{ start: iso(at(20)), end: iso(at(31)), cause: 'recorder_down', reason: 'Recorder was down', content_lost_seconds: 11 }]);
    expect(coverage.coveredSeconds).toBe(49);
  });

  it('a run whose pieces hold less than was fed to it covers only what they hold', () => {
    const ledger = new SegmentLedger(null);
    keep(ledger, 0, 30, 0, 1);
    keep(ledger, 30, 60, 15, 2);
    const coverage = ledgerCoverage(ledger, window, window.end, iso, (run) => (run === 1 ? 22 : null));
    expect(coverage.coveredSeconds).toBe(52);
    expect(coverage.gaps).toEqual([expect.objectContaining({ start: iso(at(22)), end: iso(at(30)), cause: 'stream_stalled' })]);
  });

  it('forgets the segments after what a cut run holds, so a new recorder fetches them again', () => {
    const ledger = new SegmentLedger(null);
    keep(ledger, 0, 20, 0, 1);
    expect(ledger.forgetAfter(1, 12.1).map((k) => k.sequence)).toEqual([6, 7, 8, 9]);
    expect(ledger.lastSequence()).toBe(5);
    ledger.newEpoch();
    expect(ledger.lastSequence()).toBeNull();
  });
});
