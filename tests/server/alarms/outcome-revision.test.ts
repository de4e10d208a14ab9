import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordingAlarms } from '../../../server/modules/recordings/alarms';
import type { RecordingRow } from '../../../server/modules/recordings/repository';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * An outcome that is revised after it was alarmed (the server's join recovered the media of earlier
 * runs, a late result arrived) leaves no stale alarm: capture_failed becomes capture_partial or
 * resolves, and every text is written again from the current figures.
 */
describe('alarms that follow a revised outcome', () => {
  let t: TestApp;
  let alarms: RecordingAlarms;
  const row: RecordingRow = {
    id: 'rec-revised0001',
    instance_id: 'cap-revised0001',
    mosque_id: null,
    url: 'https://streams.example.org/revised.m3u8',
    status: 'recording',
    started_at: '2026-11-23T09:00:00.000Z',
    ended_at: null,
    bytes: 0,
    duration_seconds: null,
    file_path: null,
    reason: null,
    expected_seconds: 600,
    covered_seconds: 0,
    gaps: '[]',
    reconnects: 0,
    runs: '[]',
    store_joined_at: null,
    provisional_until: null,
    resume_point: null,
    live_content: null,
    updated_at: '2026-11-23T09:00:00.000Z',
  };
  const reading = { bytes: 0, mediaSeconds: 0, filePath: null, expectedSeconds: 600 };
  const listed = async () =>
    (await t.app.ctx.alarms.list('all', 50)).filter((alarm) => alarm.instance_id === row.instance_id);

  beforeEach(async () => {
    t = await createTestApp();
    alarms = new RecordingAlarms(t.app.ctx.alarms, t.clock);
  });
  afterEach(() => t.close());

  it('replaces capture_failed by capture_partial with the joined figures, keeps its job, then resolves it', async () => {
    await alarms.check(
      row,
      { ...reading, status: 'failed', coveredSeconds: 0, reason: 'The instance ended without a recorder result' },
      'friday-revised-2026-11-27',
    );
    const [failed] = await listed();
    expect(failed).toMatchObject({ kind: 'capture_failed', severity: 'critical', resolved_at: null });
    expect(failed.message).toBe(
      'Recording rec-revised0001: nothing was recorded. The instance ended without a recorder result',
    );

    t.clock.advance(60_000);
    await alarms.storeJoined({ ...row, status: 'partial', covered_seconds: 96, reason: 'Recorded 96 s of 600 s' });
    const afterJoin = await listed();
    expect(afterJoin.find((alarm) => alarm.id === failed.id)?.resolved_at).toBe(t.clock.now().toISOString());
    const partial = afterJoin.find((alarm) => alarm.resolved_at === null);
    expect(partial).toMatchObject({
      kind: 'capture_partial',
      severity: 'warning',
      job_id: 'friday-revised-2026-11-27',
      message: 'Recording rec-revised0001: only 96 s of 600 s recorded.',
    });

    // Revised again, still partial: the same alarm, its text from the new figures.
    await alarms.storeJoined({ ...row, status: 'partial', covered_seconds: 128, reason: 'Recorded 128 s of 600 s' });
    const open = (await listed()).filter((alarm) => alarm.resolved_at === null);
    expect(open).toEqual([
      expect.objectContaining({
        id: partial?.id,
        message: 'Recording rec-revised0001: only 128 s of 600 s recorded.',
      }),
    ]);

    await alarms.storeJoined({ ...row, status: 'captured', covered_seconds: 600, reason: null });
    expect((await listed()).filter((alarm) => alarm.resolved_at === null)).toEqual([]);
  });

  it('counts the relaunches in the recorder_died text as they happen', async () => {
    for (const relaunches of [1, 4, 10])
      await alarms.check(row, { ...reading, status: 'recording', coveredSeconds: 100, reason: null, relaunches }, null);
    const died = (await listed()).filter((alarm) => alarm.kind === 'recorder_died');
    expect(died).toHaveLength(1);
    expect(died[0].message).toBe(
      'Recording rec-revised0001: the recorder died inside its window and was started again (10 times)',
    );
  });
});
