import type { Kysely, Selectable, Updateable } from 'kysely';
import type { AlarmDelivery } from '../../../contract/alarms';
import type { AlarmDeliveriesTable, Database } from '../../db/schema';

export type DeliveryRow = Selectable<AlarmDeliveriesTable>;

export function toDelivery(row: DeliveryRow): AlarmDelivery {
  return {
    channel: row.channel,
    event: row.event,
    state: row.state,
    attempts: row.attempts,
    last_attempt_at: row.last_attempt_at,
    next_attempt_at: row.next_attempt_at,
    last_error: row.last_error,
    delivered_at: row.delivered_at,
  };
}

export class AlarmDeliveriesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * False when this alarm change was already queued on this channel (by another server). A `repeated`
   * reminder has one row per alarm and channel, taken over by the next reminder once it is older than
   * `repeatCutoff` (so two servers sweeping at once remind once).
   */
  async insert(row: Omit<DeliveryRow, 'attempts' | 'claimed_by' | 'claim_until'>, repeatCutoff?: string): Promise<boolean> {
    const result = await this.db
      .insertInto('alarm_deliveries')
      .values(row)
      .onConflict((oc) => {
        const conflict = oc.columns(['alarm_id', 'event', 'channel']);
        if (repeatCutoff === undefined) return conflict.doNothing();
        const { id, notification_id, state, created_at } = row;
        return conflict
          .doUpdateSet({ id, notification_id, state, created_at, attempts: 0, last_attempt_at: null, next_attempt_at: null, last_error: null, delivered_at: null })
          .where('alarm_deliveries.created_at', '<=', repeatCutoff);
      })
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Updates the rows of one message on one channel (its alarms' deliveries share its fate). */
  async updateMessage(notificationId: string, channel: DeliveryRow['channel'], values: Updateable<AlarmDeliveriesTable>): Promise<void> {
    await this.db.updateTable('alarm_deliveries').set(values).where('notification_id', '=', notificationId).where('channel', '=', channel).execute();
  }

  /** When each of these alarms was last announced as open (raised or reminded), on any channel; absent: never. */
  async lastAnnounced(alarmIds: string[]): Promise<Map<string, string>> {
    if (alarmIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('alarm_deliveries')
      .select((eb) => ['alarm_id', eb.fn.max('created_at').as('at')])
      .where('alarm_id', 'in', alarmIds)
      .where('event', 'in', ['raised', 'repeated'])
      .groupBy('alarm_id')
      .execute();
    return new Map(rows.map((row) => [row.alarm_id, row.at]));
  }

  /** Deliveries still owed (after a restart): pending or waiting for a retry. */
  unfinished(): Promise<DeliveryRow[]> {
    return this.db.selectFrom('alarm_deliveries').selectAll().where('state', 'in', ['pending', 'retrying']).execute();
  }

  async forAlarms(alarmIds: string[]): Promise<Map<string, AlarmDelivery[]>> {
    const byAlarm = new Map<string, AlarmDelivery[]>();
    if (alarmIds.length === 0) return byAlarm;
    const rows = await this.db.selectFrom('alarm_deliveries').selectAll().where('alarm_id', 'in', alarmIds).orderBy('created_at').orderBy('channel').execute();
    for (const row of rows) byAlarm.set(row.alarm_id, [...(byAlarm.get(row.alarm_id) ?? []), toDelivery(row)]);
    return byAlarm;
  }
}
