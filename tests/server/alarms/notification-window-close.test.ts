import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Alarm } from '../../../contract/alarms';
import type { DeliveryEvent } from '../../../server/modules/alarms/alarm-text';
import { NotificationPolicy } from '../../../server/modules/alarms/notification-policy';
import type { AlarmRow } from '../../../server/modules/alarms/repository';
import { ManualClock } from '../../../testkit/manual-clock';

/**
 * The group window closes when its time is up, not when its announcement gets its turn: on a busy
 * server (a slow database, a long queue) an alarm open when its window closed is told, and its end
 * after, though it ended before the announcement was made; one never sent stays unsent.
 */
describe('a notification window on a slow database', () => {
  /** Raises `kind`, closes its window, ends the alarm while the database is slow to answer; what was sent. */
  async function endedWhileTelling(kind: string): Promise<[DeliveryEvent, string[]][]> {
    const clock = new ManualClock('2026-11-27T11:00:00Z');
    const alarm = { id: 'a1', kind, severity: 'warning' } as Alarm;
    let open: AlarmRow[] = [{ id: 'a1', kind, raised_at: clock.now().toISOString() } as AlarmRow];
    let answerOpenAlarms: () => void = () => undefined;
    const databaseAnswers = new Promise<void>((resolve) => (answerOpenAlarms = resolve));
    const sent: [DeliveryEvent, string[]][] = [];
    const announced = (ids: string[]) =>
      new Map(
        sent
          .filter(([event]) => event === 'raised')
          .flatMap(([, sentIds]) => sentIds.filter((id) => ids.includes(id)).map((id) => [id, 'x'] as const)),
      );
    const policy = new NotificationPolicy({
      groupWindowMs: 30_000,
      repeatIntervalMs: 4 * 3600_000,
      clock,
      deliveries: { deliver: async (alarms, event) => void sent.push([event, alarms.map((a) => a.id)]) },
      deliveryRows: { lastAnnounced: async (ids) => announced(ids) },
      silences: { active: async () => [] },
      // The database answers once the alarm has ended: the read that decides the announcement is slow.
      openAlarms: () => databaseAnswers.then(() => open),
      toAlarm: (row) => row as unknown as Alarm,
      log: pino({ level: 'silent' }),
    });
    policy.notice(alarm, 'raised');
    clock.advance(30_000);
    // The window has closed with the alarm open; its announcement waits on the database, and the alarm ends.
    open = [];
    policy.notice({ ...alarm, resolved_at: clock.now().toISOString() }, 'resolved');
    answerOpenAlarms();
    await new Promise((resolve) => setTimeout(resolve, 10));
    clock.advance(30_000);
    await policy.close();
    return sent;
  }

  it('tells an alarm open when its window closed, then its end', async () => {
    expect(await endedWhileTelling('stall')).toEqual([
      ['raised', ['a1']],
      ['resolved', ['a1']],
    ]);
  });

  it('still never sends a kind that is only listed (a recorder that died)', async () => {
    expect(await endedWhileTelling('recorder_died')).toEqual([]);
  });
});
