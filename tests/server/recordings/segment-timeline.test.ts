import { describe, expect, it } from 'vitest';
import { coverageOfSegments, groupSegments, runEnd } from '../../../server/modules/recordings/segment-timeline';

/**
 * Where the segments in the store lie in the window: by when they reached it, a run's pieces being
 * contiguous, so one piece delivered late (an upload retried) does not move its run.
 */
describe('the timeline of the segments in the store', () => {
  const T0 = Date.parse('2026-11-27T12:00:00.000Z');
  const at = (s: number) => T0 + s * 1000;
  const iso = (s: number) => new Date(at(s)).toISOString();
  const key = (launch: string, run: number, piece: number) =>
    `noor/2026-11-27/rec-1/segments/${launch}/run-${String(run).padStart(4, '0')}-${String(piece).padStart(5, '0')}.ts`;

  it('orders runs by launch and run, ignores what is not a segment, and ends a run by its prompt pieces', () => {
    const runs = groupSegments([
      { key: key('20261127T120500Z', 1, 0), seconds: 4, arrivedAt: at(304) },
      { key: key('20261127T120000Z', 2, 1), seconds: 4, arrivedAt: at(208) },
      { key: key('20261127T120000Z', 1, 1), seconds: 4, arrivedAt: at(8) },
      // Delivered 60 s late after failed uploads: its run still ends at 8 s.
      { key: key('20261127T120000Z', 1, 0), seconds: 4, arrivedAt: at(64) },
      { key: key('20261127T120000Z', 2, 0), seconds: 4, arrivedAt: at(204) },
      { key: 'noor/2026-11-27/rec-1/metadata.json', seconds: 0, arrivedAt: at(400) },
    ]);
    expect(runs.map((r) => `${r.launch}/${r.run}:${r.segments.length}`)).toEqual([
      '20261127T120000Z/1:2',
      '20261127T120000Z/2:2',
      '20261127T120500Z/1:1',
    ]);
    expect(runs.map(runEnd)).toEqual([at(8), at(208), at(304)]);
  });

  it('lists the holes between the runs with the reason the recording gave them, else that nothing arrived', () => {
    const runs = groupSegments([
      { key: key('20261127T120000Z', 1, 0), seconds: 60, arrivedAt: at(60) },
      { key: key('20261127T120200Z', 1, 0), seconds: 60, arrivedAt: at(180) },
      { key: key('20261127T120200Z', 2, 0), seconds: 30, arrivedAt: at(300) },
    ]);
    const coverage = coverageOfSegments(runs, { start: at(0), end: at(300) }, [
      { start: iso(55), end: iso(125), cause: 'recorder_down', reason: 'Recorder was down', content_lost_seconds: 70 },
    ]);
    expect(coverage).toMatchObject({ expectedSeconds: 300, coveredSeconds: 150 });
    expect(coverage.gaps).toEqual([
      { start: iso(60), end: iso(120), cause: 'recorder_down', reason: 'Recorder was down', content_lost_seconds: 60 },
      {
        start: iso(180),
        end: iso(270),
        cause: 'store_unreachable',
        reason: 'No media reached the store',
        content_lost_seconds: 90,
      },
    ]);
  });
});
