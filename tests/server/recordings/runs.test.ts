import { describe, expect, it } from 'vitest';
import type { ProviderRecording } from '../../../server/capture/provider';
import { lostRun, toRun, unionOfRuns } from '../../../server/modules/recordings/runs';

/**
 * A relaunched recording is what its runs covered together: a moment is a gap only when no run
 * covered it, and the union never claims more than the runs' media hold.
 */
describe('the union of a recording’s runs', () => {
  const T0 = Date.parse('2026-11-27T12:00:00.000Z');
  const at = (s: number) => new Date(T0 + s * 1000).toISOString();
  const window = { start: T0, end: T0 + 600_000 };
  const reading = (fields: Partial<ProviderRecording>): ProviderRecording => ({
    status: 'partial',
    bytes: 1,
    mediaSeconds: null,
    filePath: null,
    reason: null,
    reconnects: 0,
    ...fields,
  });

  it('keeps a gap only where no run had media, with the reason of the run alive then', () => {
    // Run 1 lost the stream from 100 s to 160 s, then died at 300 s; run 2, started at 310 s, had media from 312 s.
    const first = toRun(
      reading({
        coveredSeconds: 240,
        gaps: [
          { start: at(100), end: at(160), cause: 'stream_dropped', reason: 'Stream dropped', content_lost_seconds: 60 },
        ],
        measuredUntil: at(300),
        reconnects: 1,
      }),
      T0,
      T0 + 305_000,
      window,
      T0 + 310_000,
    );
    const second = toRun(
      reading({
        coveredSeconds: 288,
        gaps: [
          {
            start: at(0),
            end: at(312),
            cause: 'recorder_down',
            reason: 'Connecting to the stream',
            content_lost_seconds: 312,
          },
        ],
        measuredUntil: at(600),
      }),
      T0 + 310_000,
      T0 + 600_000,
      window,
      T0 + 600_000,
    );
    const union = unionOfRuns([first, second], window, reading({ status: 'partial' }), true);
    expect(union).toMatchObject({
      status: 'partial',
      expectedSeconds: 600,
      coveredSeconds: 528,
      reconnects: 1,
      relaunches: 1,
    });
    expect(union.gaps).toEqual([
      { start: at(100), end: at(160), cause: 'stream_dropped', reason: 'Stream dropped', content_lost_seconds: 60 },
      { start: at(300), end: at(312), cause: 'recorder_down', reason: 'Recorder was down', content_lost_seconds: 12 },
    ]);
  });

  it('counts media two runs both had once, and a run without a reading as covering nothing', () => {
    const first = toRun(
      reading({ coveredSeconds: 400, gaps: [], measuredUntil: at(400) }),
      T0,
      T0 + 400_000,
      window,
      T0 + 390_000,
    );
    const lost = toRun(
      reading({ reason: 'The instance ended without a recorder result' }),
      T0 + 390_000,
      T0 + 450_000,
      window,
      T0 + 450_000,
    );
    const last = toRun(
      reading({ coveredSeconds: 150, gaps: [], measuredUntil: at(600) }),
      T0 + 450_000,
      T0 + 600_000,
      window,
      T0 + 600_000,
    );
    const union = unionOfRuns([first, lost, last], window, reading({ status: 'partial' }), true);
    expect(union).toMatchObject({ coveredSeconds: 550, relaunches: 2 });
    expect(union.gaps).toEqual([
      {
        start: at(400),
        end: at(450),
        cause: 'recorder_down',
        reason: 'The instance ended without a recorder result',
        content_lost_seconds: 50,
      },
    ]);
  });

  it('never claims the short holes a run did not list', () => {
    // 300 s measured, 290 s of media, no listed gap: 10 s of holes under 2 s each.
    const first = toRun(
      reading({ coveredSeconds: 290, gaps: [], measuredUntil: at(300) }),
      T0,
      T0 + 300_000,
      window,
      T0 + 300_000,
    );
    const second = toRun(
      reading({ coveredSeconds: 300, gaps: [], measuredUntil: at(600) }),
      T0 + 300_000,
      T0 + 600_000,
      window,
      T0 + 600_000,
    );
    const union = unionOfRuns([first, second], window, reading({ status: 'captured' }), true);
    expect(union).toMatchObject({ coveredSeconds: 590, status: 'partial' });
    const captured = unionOfRuns(
      [second],
      { start: T0 + 300_000, end: T0 + 600_000 },
      reading({ status: 'captured' }),
      true,
    );
    expect(captured).toMatchObject({ coveredSeconds: 300, status: 'captured', reason: null });
  });

  it('lists a hole shorter than 2 s between runs when the recording is not captured, as the recorder does', () => {
    const first = toRun(
      reading({ coveredSeconds: 300, gaps: [], measuredUntil: at(300) }),
      T0,
      T0 + 300_000,
      window,
      T0 + 300_000,
    );
    const connecting = {
      start: at(0),
      end: at(301.5),
      cause: 'recorder_down' as const,
      reason: 'Connecting to the stream',
      content_lost_seconds: 301.5,
    };
    const dropped = {
      start: at(400),
      end: at(410),
      cause: 'stream_dropped' as const,
      reason: 'Stream dropped (HTTP 404)',
      content_lost_seconds: 10,
    };
    const second = toRun(
      reading({ coveredSeconds: 288.5, gaps: [connecting, dropped], measuredUntil: at(600) }),
      T0 + 300_000,
      T0 + 600_000,
      window,
      T0 + 600_000,
    );
    const union = unionOfRuns([first, second], window, reading({ status: 'partial' }), true);
    expect(union).toMatchObject({ coveredSeconds: 588.5, status: 'partial' });
    expect(union.gaps).toEqual([{ ...connecting, start: at(300), content_lost_seconds: 1.5 }, dropped]);
  });

  it('keeps a lost server’s recorder that had not started and the loss after it as two gaps, each with its cause', () => {
    // The lost server's recorder had shown no media by its last heartbeat (40 s); the server was taken
    // over at 60 s and the continuing recorder's media began at 70 s.
    const lostAt = 'Server a on host-a was lost';
    const notStarted = {
      start: at(0),
      end: at(40),
      cause: 'recorder_down' as const,
      reason: 'The recorder had not started',
      content_lost_seconds: 40,
    };
    const lost = lostRun(
      { coveredSeconds: 0, gaps: [notStarted], reconnects: 0 },
      T0,
      T0 + 40_000,
      T0 + 60_000,
      lostAt,
    );
    const continued = toRun(
      reading({
        coveredSeconds: 530,
        gaps: [
          {
            start: at(60),
            end: at(70),
            cause: 'recorder_down',
            reason: 'The recorder started 10 s after the window opened',
            content_lost_seconds: 10,
          },
        ],
        measuredUntil: at(600),
      }),
      T0 + 60_000,
      T0 + 600_000,
      window,
      T0 + 600_000,
    );
    const union = unionOfRuns([lost, continued], window, reading({ status: 'partial' }), true);
    expect(union.gaps).toEqual([
      notStarted,
      { start: at(40), end: at(70), cause: 'server_down', reason: lostAt, content_lost_seconds: 30 },
    ]);
    expect(union.coveredSeconds).toBe(530);
  });
});
