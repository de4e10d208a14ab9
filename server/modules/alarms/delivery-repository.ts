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

  /** False when this alarm change was already queued on this channel (by another server). */
  async insert(row: Omit<DeliveryRow, 'attempts'>): Promise<boolean> {
    const result = await this.db
      .insertInto('alarm_deliveries')
      .values(row)
      .onConflict((oc) => oc.columns(['alarm_id', 'event', 'channel']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async update(id: string, values: Updateable<AlarmDeliveriesTable>): Promise<void> {
    await this.db.updateTable('alarm_deliveries').set(values).where('id', '=', id).execute();
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
