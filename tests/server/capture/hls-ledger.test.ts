import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerCoverage, SegmentLedger } from '../../../recorder/hls-ledger';
import { outcomeFromCoverage } from '../../../recorder/recorder-coverage';

const T0 = Date.parse('2026-11-27T11:40:00Z');
const at = (s: number) => T0 + s * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const window = { start: at(0), end: at(60) };

/** Keeps 2 s segments [from, to) seconds into the window, numbered from `sequence`, in `run`; `joined`: the first follows the segment before. */
function keep(ledger: SegmentLedger, from: number, to: number, sequence: number, run = 1, joined = false): void {
  for (let s = from; s < to; s += 2)
    ledger.keep({ sequence: sequence++, seconds: 2, start: at(s), run, joined: s > from || joined });
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
        {
          start: iso(at(0)),
          end: iso(at(6)),
          cause: 'not_live_yet',
          reason: 'Stream not live yet (HTTP 404)',
          content_lost_seconds: 0,
        },
        {
          start: iso(at(20)),
          end: iso(at(30)),
          cause: 'stream_dropped',
          reason: 'Stream dropped (HTTP 503)',
          content_lost_seconds: 4,
        },
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
    expect(coverage.gaps).toEqual([
      {
        start: iso(at(20)),
        end: iso(at(31)),
        cause: 'recorder_down',
        reason: 'Recorder was down',
        content_lost_seconds: 11,
      },
    ]);
    expect(coverage.coveredSeconds).toBe(49);
  });

  it("a recorder continuing a lost server's recording: the hole from where that one stopped is one server_down gap, all of it lost", () => {
    const ledger = new SegmentLedger(null);
    const reason = 'Server s-1 (http://10.0.0.1:8000) on host-a was lost (last seen 2026-11-27T11:40:24.000Z)';
    // The lost recorder's last segment ended 22 s in; this one starts 40 s in and the playlist still lists from 30 s.
    ledger.recorderStarted(at(40), window.start, { since: at(22), reason });
    ledger.loseContent({ start: at(22), end: at(30), seconds: 8, reason: 'segments 11-14 left the playlist' });
    keep(ledger, 30, 60, 15, 1);
    expect(ledger.resumePoint()).toEqual({ sequence: 29, end: at(60) });
    const coverage = ledgerCoverage(ledger, window, window.end, iso);
    expect(coverage.coveredSeconds).toBe(30);
    // Before the point it went on from, the hole is the lost recorder's (the server keeps that run); not a late start.
    expect(coverage.gaps).toEqual([
      { start: iso(at(0)), end: iso(at(30)), cause: 'server_down', reason, content_lost_seconds: 30 },
    ]);
    expect(ledger.conditions.map((c) => c.cause)).toEqual(['server_down']);
  });

  it('a run whose pieces hold less than was fed to it covers only what they hold, and the rest is a gap of its cause at its end', () => {
    const ledger = new SegmentLedger(null);
    keep(ledger, 0, 30, 0, 1);
    // The next run follows without a hole on the stream's time line: only the pieces lack the end of the first.
    keep(ledger, 30, 60, 15, 2, true);
    const coverage = ledgerCoverage(ledger, window, window.end, iso, (run) =>
      run === 1 ? { seconds: 22, cause: 'recorder_down', reason: 'ffmpeg was killed (SIGKILL)' } : null,
    );
    expect(coverage.coveredSeconds).toBe(52);
    expect(coverage.gaps).toEqual([
      {
        start: iso(at(22)),
        end: iso(at(30)),
        cause: 'recorder_down',
        reason: 'ffmpeg was killed (SIGKILL)',
        content_lost_seconds: 8,
      },
    ]);
  });

  it('a shortfall of a second in what the pieces hold is listed, even in a recording that is captured', () => {
    const ledger = new SegmentLedger(null);
    keep(ledger, 0, 100, 0, 1);
    keep(ledger, 100, 200, 50, 2, true);
    const long = { start: at(0), end: at(200) };
    const coverage = ledgerCoverage(ledger, long, long.end, iso, (run) =>
      run === 1 ? { seconds: 99, cause: 'store_unreachable', reason: '1 piece did not reach the store' } : null,
    );
    expect(coverage.coveredSeconds).toBe(199);
    expect(coverage.gaps).toEqual([
      {
        start: iso(at(99)),
        end: iso(at(100)),
        cause: 'store_unreachable',
        reason: '1 piece did not reach the store',
        content_lost_seconds: 1,
      },
    ]);
  });

  it('a partial recording lists the hole that makes it partial, however short', () => {
    const ledger = new SegmentLedger(null);
    // 2 s segments, and one that could not be fetched: 58.5 s of 60 is under 99%.
    keep(ledger, 0, 30, 0);
    ledger.loseContent({ start: at(30), end: at(31.5), seconds: 1.5, reason: 'segment 15: HTTP 500' });
    keep(ledger, 31.5, 61.5, 16, 2);
    const coverage = ledgerCoverage(ledger, window, window.end, iso);
    expect(coverage.coveredSeconds).toBe(58.5);
    expect(coverage.gaps).toEqual([
      {
        start: iso(at(30)),
        end: iso(at(31.5)),
        cause: 'stream_dropped',
        reason: 'Stream dropped (segment 15: HTTP 500)',
        content_lost_seconds: 1.5,
      },
    ]);
  });

  it('a stream slower than real time has no hole between its joined segments, and the partial says why it is short', () => {
    const ledger = new SegmentLedger(null);
    // 2 s segments published every 3 s from 12 s to 30 s (a slow origin), each placed after its predecessor.
    keep(ledger, 0, 12, 0);
    for (let s = 12, sequence = 6; s < 30; s += 3)
      ledger.keep({ sequence: sequence++, seconds: 2, start: at(s), run: 1, joined: true });
    keep(ledger, 30, 60, 12, 1, true);
    const coverage = ledgerCoverage(ledger, window, window.end, iso);
    expect(coverage).toMatchObject({ coveredSeconds: 54, gaps: [], reconnects: 0 });
    expect(outcomeFromCoverage(coverage, null, null)).toEqual({
      status: 'partial',
      reason:
        "Recorded 54 s of 60 s: the stream's segments came 6 s slower than real time, with nothing missing between them",
    });
  });

  it("a slow stream's stretch that ends short of the window is no hole when its last segment was published after the end", () => {
    // A slow origin: 2 s segments published every 2.2 s, joined, the last ending 0.4 s before the window's end.
    const slowStretch = (publishedAfter?: number) => {
      const ledger = new SegmentLedger(null);
      for (let sequence = 0; sequence < 28; sequence++)
        ledger.keep({
          sequence,
          seconds: 2,
          start: at(59.6 - 2 - (27 - sequence) * 2.2),
          run: 1,
          joined: sequence > 0,
          ...(sequence === 27 && publishedAfter !== undefined ? { publishedAfter } : {}),
        });
      return ledgerCoverage(ledger, window, window.end + 5000, iso);
    };
    // A reading asked after the window's end did not list it: the stream was on the air with it to the end.
    expect(slowStretch(at(60.5)).gaps).toEqual([]);
    // Back after a drop (not joined), placed short of the end though published after it: no proof of the
    // stream on the air to the end, so what it leaves of the window is listed.
    const dropped = new SegmentLedger(null);
    keep(dropped, 0, 40, 0);
    dropped.keep({ sequence: 20, seconds: 2, start: at(55), run: 1, joined: false, publishedAfter: at(61) });
    expect(ledgerCoverage(dropped, window, window.end + 5000, iso).gaps).toMatchObject([
      { start: iso(at(40)), end: iso(at(55)) },
      { start: iso(at(57)), end: iso(at(60)) },
    ]);
    // Published before the end (or no reading says): nothing came after it in the window, a hole the partial lists.
    for (const publishedAfter of [at(59), undefined])
      expect(slowStretch(publishedAfter).gaps).toEqual([
        {
          start: iso(at(59.6)),
          end: iso(at(60)),
          cause: 'stream_stalled',
          reason: 'The stream published no new segment',
          content_lost_seconds: 0,
        },
      ]);
  });

  it('an encoder restart is a sequence_reset gap from the end of the content kept to the new numbering, with its seconds lost', () => {
    const ledger = new SegmentLedger(null);
    keep(ledger, 0, 20, 0);
    // No new segment for the stall time: the reader calls it a stall, as of when it last saw one.
    ledger.meet('stream_stalled', 'Stream stalled (no new segment for 6 s)', at(21));
    // The new numbering is listed at 30 s; its first segment was on the air from 24 s.
    ledger.meet('sequence_reset', "The stream's encoder restarted (media sequence 9 -> 0)", at(30));
    ledger.newEpoch();
    ledger.clear(at(24));
    keep(ledger, 24, 60, 0);
    const coverage = ledgerCoverage(ledger, window, window.end, iso);
    expect(coverage.gaps).toEqual([
      {
        start: iso(at(20)),
        end: iso(at(24)),
        cause: 'sequence_reset',
        reason: "The stream's encoder restarted (media sequence 9 -> 0)",
        content_lost_seconds: 4,
      },
    ]);
    // The file lacks 4 s: no reason may say nothing is missing.
    expect(outcomeFromCoverage(coverage, null, null).reason).toBe(
      "Recorded 56 s of 60 s: The stream's encoder restarted (media sequence 9 -> 0) for 4 s",
    );
  });

  it('a captured recording does not list a hole shorter than 2 s', () => {
    const ledger = new SegmentLedger(null);
    keep(ledger, 0, 30, 0);
    keep(ledger, 30.5, 60.5, 15, 2);
    const coverage = ledgerCoverage(ledger, window, window.end, iso);
    expect(coverage.coveredSeconds).toBe(59.5);
    expect(coverage.gaps).toEqual([]);
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

describe('the ledger file', () => {
  const state = (ledger: SegmentLedger) => ({
    epoch: ledger.epoch,
    kept: ledger.kept,
    lost: ledger.lost,
    conditions: ledger.conditions,
  });

  it('appends each change after the whole ledger, and a recorder started on it rebuilds the same ledger', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-'));
    try {
      const file = path.join(dir, 'ledger.json');
      const ledger = new SegmentLedger(file);
      ledger.recorderStarted(at(3), window.start);
      ledger.meet('not_live_yet', 'Stream not live yet (HTTP 404)', at(3));
      ledger.clear(at(6));
      keep(ledger, 6, 20, 0);
      ledger.save(at(20));
      const firstLine = fs.readFileSync(file, 'utf8');
      ledger.meet('sequence_reset', "The stream's encoder restarted", at(24));
      ledger.newEpoch();
      keep(ledger, 24, 30, 0, 2);
      ledger.loseContent({ start: at(30), end: at(32), seconds: 2, reason: 'segment 3: HTTP 404' });
      keep(ledger, 32, 36, 4, 3);
      ledger.forgetAfter(3, 2);
      ledger.save(at(36));
      const text = fs.readFileSync(file, 'utf8');
      // Appended, not rewritten: the first save's line is still the file's start.
      expect(text.startsWith(firstLine)).toBe(true);
      expect(text.split('\n').length).toBeGreaterThan(firstLine.split('\n').length + 5);
      // A line a crash cut short is where the file ends.
      fs.appendFileSync(file, '["keep",{"seque');
      expect(state(new SegmentLedger(file))).toEqual(state(ledger));
      // The next recorder sees it was alive until the last save.
      const next = new SegmentLedger(file);
      next.recorderStarted(at(50), window.start);
      expect(next.conditions.at(-1)).toMatchObject({ start: at(36), end: at(50), cause: 'recorder_down' });
      // Written whole at the end, it is one JSON document again.
      ledger.saveWhole();
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject(state(ledger));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('moves the stretch a reading proved early, from the last segment a reading placed on, with what it lost, and replays it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-'));
    try {
      const file = path.join(dir, 'ledger.json');
      const ledger = new SegmentLedger(file);
      ledger.keep({ sequence: 0, seconds: 2, start: at(0), run: 1, estimated: true });
      keep(ledger, 2, 20, 1, 1, true);
      ledger.save(at(20));
      ledger.meet('stream_dropped', 'Stream dropped (HTTP 404)', at(20));
      // After a 404 the first segment is placed from the reading, as if the newest listed were just published.
      ledger.loseContent({ start: at(21.7), end: at(31.7), seconds: 10, reason: 'segments 10-14 left the playlist' });
      ledger.clear(at(31.7));
      ledger.keep({ sequence: 15, seconds: 2, start: at(31.7), run: 2, estimated: true });
      keep(ledger, 33.7, 39.7, 16, 2, true);
      // A later reading listed 18 by 38 s: the stretch from 15 on lies 1.7 s earlier; what was before it stays.
      ledger.placeEarlier(1700);
      expect(ledger.kept.filter((k) => k.sequence >= 15).map((k) => k.start)).toEqual([at(30), at(32), at(34), at(36)]);
      expect(ledger.kept.find((k) => k.sequence === 9)?.start).toBe(at(18));
      expect(ledger.lost).toEqual([
        { start: at(20), end: at(30), seconds: 10, reason: 'segments 10-14 left the playlist' },
      ]);
      expect(ledgerCoverage(ledger, window, at(38), iso).gaps).toMatchObject([
        { start: iso(at(20)), end: iso(at(30)), cause: 'stream_dropped', content_lost_seconds: 10 },
      ]);
      ledger.save(at(38));
      expect(state(new SegmentLedger(file))).toEqual(state(ledger));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a ledger written whole on several lines', () => {
    const ledger = SegmentLedger.parse(
      JSON.stringify({ epoch: 1, kept: [], lost: [], conditions: [], aliveAt: at(5) }, null, 2),
    );
    expect(ledger.epoch).toBe(1);
  });

  it('notes the recorder alive only as often as asked when nothing changed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-'));
    try {
      const file = path.join(dir, 'ledger.json');
      const ledger = new SegmentLedger(file);
      ledger.save(at(0), 5000);
      const size = fs.statSync(file).size;
      ledger.save(at(4), 5000);
      expect(fs.statSync(file).size).toBe(size);
      ledger.save(at(5), 5000);
      expect(fs.statSync(file).size).toBeGreaterThan(size);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
