import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Dialect } from '../../db/dialect';
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

/** States of a delivery still owed. */
const OWED = ['pending', 'retrying'] as const;

/** Who claims a message, until when, and which other holder it may be taken from (one known dead). */
export interface ClaimRequest {
  holder: string;
  now: string;
  until: string;
  from?: string;
}

/** A message (one notification on one channel) still owed, and who holds it. */
export interface OwedMessage {
  notification_id: string;
  channel: DeliveryRow['channel'];
  claimed_by: string | null;
  claim_until: string | null;
}

export class AlarmDeliveriesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * False when this alarm change was already queued on this channel (by another server). A `repeated`
   * reminder has one row per alarm and channel, taken over by the next reminder once it is older than
   * `repeatCutoff` (so two servers sweeping at once remind once).
   */
  async insert(row: Omit<DeliveryRow, 'attempts'>, repeatCutoff?: string): Promise<boolean> {
    const result = await this.db
      .insertInto('alarm_deliveries')
      .values(row)
      .onConflict((oc) => {
        const conflict = oc.columns(['alarm_id', 'event', 'channel']);
        if (repeatCutoff === undefined) return conflict.doNothing();
        const { id, notification_id, state, created_at, claimed_by, claim_until } = row;
        return conflict
          .doUpdateSet({
            id,
            notification_id,
            state,
            created_at,
            claimed_by,
            claim_until,
            attempts: 0,
            last_attempt_at: null,
            next_attempt_at: null,
            last_error: null,
            delivered_at: null,
          })
          .where('alarm_deliveries.created_at', '<=', repeatCutoff);
      })
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Updates the rows of one message on one channel (its alarms' deliveries share its fate). */
  async updateMessage(
    notificationId: string,
    channel: DeliveryRow['channel'],
    values: Updateable<AlarmDeliveriesTable>,
  ): Promise<void> {
    await this.db
      .updateTable('alarm_deliveries')
      .set(values)
      .where('notification_id', '=', notificationId)
      .where('channel', '=', channel)
      .execute();
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

  /** The rows of one message still owed. */
  owedRows(notificationId: string, channel: DeliveryRow['channel']): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('alarm_deliveries')
      .selectAll()
      .where('notification_id', '=', notificationId)
      .where('channel', '=', channel)
      .where('state', 'in', OWED)
      .execute();
  }

  /** Every message still owed: pending, or waiting for a retry. */
  owed(): Promise<OwedMessage[]> {
    return this.db
      .selectFrom('alarm_deliveries')
      .select(['notification_id', 'channel', 'claimed_by', 'claim_until'])
      .distinct()
      .where('state', 'in', OWED)
      .execute();
  }

  /**
   * Claims a whole message for `holder` until `until`: it is unclaimed, already its own, its claim
   * lapsed, or held by `from` (a holder known to be dead). On PostgreSQL its rows are locked with
   * FOR UPDATE SKIP LOCKED and the claim fails, without waiting, when another server has any of them
   * locked (it is claiming or settling that message now); a message is never split between servers.
   */
  async claimMessage(notificationId: string, channel: DeliveryRow['channel'], claim: ClaimRequest): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owed = trx
        .selectFrom('alarm_deliveries')
        .where('notification_id', '=', notificationId)
        .where('channel', '=', channel)
        .where('state', 'in', OWED);
      const select = owed.select(['id', 'claimed_by', 'claim_until']);
      const locked = await (this.dialect === 'postgres' ? select.forUpdate().skipLocked() : select).execute();
      if (locked.length === 0) return false;
      const { total } = await owed.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      if (locked.length < Number(total)) return false;
      const free = (row: (typeof locked)[number]) =>
        row.claimed_by === null ||
        row.claimed_by === claim.holder ||
        row.claimed_by === claim.from ||
        (row.claim_until !== null && row.claim_until < claim.now);
      if (!locked.every(free)) return false;
      await trx
        .updateTable('alarm_deliveries')
        .set({ claimed_by: claim.holder, claim_until: claim.until })
        .where(
          'id',
          'in',
          locked.map((row) => row.id),
        )
        .execute();
      return true;
    });
  }

  /** Extends every claim `holder` has on messages still owed. */
  async renewClaims(holder: string, until: string): Promise<void> {
    await this.db
      .updateTable('alarm_deliveries')
      .set({ claim_until: until })
      .where('claimed_by', '=', holder)
      .where('state', 'in', OWED)
      .execute();
  }

  /** Lets go of every claim of `holder` (a server stopping): another server, or the next start, takes them at once. */
  async releaseClaims(holder: string): Promise<void> {
    await this.db
      .updateTable('alarm_deliveries')
      .set({ claimed_by: null, claim_until: null })
      .where('claimed_by', '=', holder)
      .execute();
  }

  async forAlarms(alarmIds: string[]): Promise<Map<string, AlarmDelivery[]>> {
    const byAlarm = new Map<string, AlarmDelivery[]>();
    if (alarmIds.length === 0) return byAlarm;
    const rows = await this.db
      .selectFrom('alarm_deliveries')
      .selectAll()
      .where('alarm_id', 'in', alarmIds)
      .orderBy('created_at')
      .orderBy('channel')
      .execute();
    for (const row of rows) byAlarm.set(row.alarm_id, [...(byAlarm.get(row.alarm_id) ?? []), toDelivery(row)]);
    return byAlarm;
  }
}
