import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHlsSource, type HlsSource } from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';
import { startWindowHarness, type WindowHarness } from './window-harness';

// PostgreSQL pass: skipped: a real recorder process waiting in real time; its rows are the launch proven on PostgreSQL elsewhere

/*
 * A recorder launched ahead of its window (the provider's lead time; here a start_at 8 s ahead, within
 * a lead of 30 s, launched at once) waits for the window to open before it records: its file and
 * coverage are the window's, and nothing before it.
 */
describe('a recorder launched before its window', () => {
  let h: WindowHarness;
  let source: HlsSource;
  beforeAll(async () => {
    // A start_at within the lead time is launched at once, for a window that opens at start_at.
    [h, source] = await Promise.all([startWindowHarness({ CAPTURE_LEAD_SECONDS: '30' }), startHlsSource()]);
  });
  afterAll(async () => {
    await h?.close();
    await source?.close();
  });

  it('waits for the window to open, then records it', { timeout: scaled(90_000) }, async () => {
    const token = await h.t.login();
    await h.t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token,
      payload: { mosque_id: 'waitwindow', name: 'Waiting Mosque', languages: ['en'] },
    });
    const startAt = new Date(h.t.clock.now().getTime() + 8000).toISOString();
    const response = await h.t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: {
        configs: [
          { url: source.url, duration: 10, width: 320, height: 240, mosque_id: 'waitwindow', start_at: startAt },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [launched] = response.json<{ data: { instances: { id: string }[] } }>().data.instances;

    const recording = await h.outcome(launched.id, scaled(60_000));
    expect(recording).toMatchObject({ started_at: startAt, expected_seconds: 10 });
    const logs = await h.t.request({ method: 'GET', url: `/api/instances/${launched.id}/logs?lines=500`, token });
    const lines = logs.json<{ data: { logs: string[] } }>().data.logs;
    const waited = lines.findIndex((line) => /s before the window opens at .*; waiting/.test(line));
    const capturing = lines.findIndex((line) => /capturing /.test(line));
    expect(waited, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(capturing).toBeGreaterThan(waited);
    expect(recording.gaps.filter((gap) => gap.cause === 'recorder_late')).toEqual([]);
  });
});
