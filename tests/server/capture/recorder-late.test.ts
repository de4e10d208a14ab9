import { describe, expect, it } from 'vitest';
import { ledgerCoverage, SegmentLedger } from '../../../recorder/hls-ledger';
import { computeCoverage } from '../../../recorder/recorder-coverage';
import type { RunRecord } from '../../../recorder/recorder-state';

/*
 * A machine that was not ready when its window opened (a boot longer than the lead time) leaves a gap
 * of its own cause, recorder_late: the stream was on the air, the recorder was not there yet. It is
 * neither a stream that was not live yet (nothing lost) nor a recorder that died (a relaunch's matter).
 */

const T0 = Date.parse('2026-11-27T12:10:00Z');
const at = (s: number) => T0 + s * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const window = { start: at(0), end: at(120) };

describe('a recorder that started after its window opened', () => {
  it('is a recorder_late gap that lost what the stream offered, on the segment ledger', () => {
    const ledger = new SegmentLedger(null);
    ledger.recorderStarted(at(40), window.start);
    for (let s = 40, sequence = 0; s < 120; s += 2)
      ledger.keep({ sequence: sequence++, seconds: 2, start: at(s), run: 1, joined: s > 40 });
    const coverage = ledgerCoverage(ledger, window, window.end, iso);
    expect(coverage.gaps).toEqual([
      {
        start: iso(at(0)),
        end: iso(at(40)),
        cause: 'recorder_late',
        reason: 'The recorder started 40 s after the window opened',
        content_lost_seconds: 40,
      },
    ]);
  });

  it('is a recorder_late gap when ffmpeg reads the stream', () => {
    const run: RunRecord = {
      index: 1,
      startedAt: iso(at(30)),
      firstMediaAt: iso(at(31)),
      lastMediaAt: iso(at(120)),
      endedAt: iso(at(120)),
      endReason: null,
      endCause: null,
      error: null,
      mediaSeconds: 89,
      bytes: 1,
    };
    const coverage = computeCoverage(window.start, window.end, [{ run, seconds: 89 }], iso);
    expect(coverage.gaps).toEqual([
      expect.objectContaining({
        start: iso(at(0)),
        end: iso(at(31)),
        cause: 'recorder_late',
        content_lost_seconds: 31,
      }),
    ]);
  });
});
