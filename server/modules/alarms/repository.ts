import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { AlarmsTable, Database } from '../../db/schema';

/** A stored alarm; read for showing, with its mosque's name of now (null when the mosque is gone). */
export type AlarmRow = Selectable<AlarmsTable> & { current_mosque_name?: string | null };

export class AlarmsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findOpenByCause(causeKey: string): Promise<AlarmRow | undefined> {
    return this.db
      .selectFrom('alarms')
      .selectAll()
      .where('cause_key', '=', causeKey)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
  }

  /** The newest alarm this cause ever had, open or resolved. */
  findLatestByCause(causeKey: string): Promise<AlarmRow | undefined> {
    return this.db
      .selectFrom('alarms')
      .selectAll()
      .where('cause_key', '=', causeKey)
      .orderBy('raised_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  findById(id: string): Promise<AlarmRow | undefined> {
    return this.withCurrentMosqueName().where('alarms.id', '=', id).executeTakeFirst();
  }

  /** False when an open alarm of the same cause exists already (raised meanwhile by another server). */
  async insertOpen(row: Insertable<AlarmsTable>): Promise<boolean> {
    const result = await this.db
      .insertInto('alarms')
      .values(row)
      .onConflict((oc) => oc.column('cause_key').where('resolved_at', 'is', null).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Resolves the open alarms of these causes; returns the rows it resolved. */
  async resolveOpen(causeKeys: string[], at: string): Promise<AlarmRow[]> {
    if (causeKeys.length === 0) return [];
    return this.db
      .updateTable('alarms')
      .set({ resolved_at: at, updated_at: at })
      .where('cause_key', 'in', causeKeys)
      .where('resolved_at', 'is', null)
      .returningAll()
      .execute();
  }

  /** The cause keys of every open alarm (there are few: one per unresolved problem). */
  async openCauseKeys(): Promise<string[]> {
    const rows = await this.db.selectFrom('alarms').select('cause_key').where('resolved_at', 'is', null).execute();
    return rows.map((row) => row.cause_key);
  }

  async update(id: string, values: Updateable<AlarmsTable>): Promise<AlarmRow | undefined> {
    return this.db.updateTable('alarms').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  list(status: 'open' | 'all', limit: number): Promise<AlarmRow[]> {
    let query = this.withCurrentMosqueName();
    if (status === 'open') query = query.where('alarms.resolved_at', 'is', null);
    return query.orderBy('alarms.raised_at', 'desc').orderBy('alarms.id', 'desc').limit(limit).execute();
  }

  /** Alarms keep the name their mosque had when raised; the mosque may have been renamed since. */
  private withCurrentMosqueName() {
    return this.db
      .selectFrom('alarms')
      .leftJoin('mosques', 'mosques.mosque_id', 'alarms.mosque_id')
      .selectAll('alarms')
      .select('mosques.name as current_mosque_name');
  }

  async countOpen(severity: 'critical' | 'warning'): Promise<number> {
    const row = await this.db
      .selectFrom('alarms')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('resolved_at', 'is', null)
      .where('severity', '=', severity)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Alarms (open or not) of these jobs or instances, and the open alarms of these causes. */
  async linkedTo(links: AlarmLinks): Promise<LinkedAlarm[]> {
    const found: LinkedAlarm[] = [];
    const chunks = <T>(items: T[]) =>
      Array.from({ length: Math.ceil(items.length / LINK_CHUNK) }, (_, i) =>
        items.slice(i * LINK_CHUNK, (i + 1) * LINK_CHUNK),
      );
    const select = () => this.db.selectFrom('alarms').select(['id', 'job_id', 'instance_id', 'cause_key']);
    for (const ids of chunks(links.jobIds)) found.push(...(await select().where('job_id', 'in', ids).execute()));
    for (const ids of chunks(links.instanceIds))
      found.push(...(await select().where('instance_id', 'in', ids).execute()));
    for (const keys of chunks(links.openKeys))
      found.push(...(await select().where('cause_key', 'in', keys).where('resolved_at', 'is', null).execute()));
    return [...new Map(found.map((alarm) => [alarm.id, alarm])).values()];
  }

  /** Open alarms counted by kind and severity (the /metrics gauge). */
  async openCounts(): Promise<{ kind: string; severity: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('alarms')
      .select((eb) => ['kind', 'severity', eb.fn.countAll<number | string>().as('count')])
      .where('resolved_at', 'is', null)
      .groupBy(['kind', 'severity'])
      .execute();
    return rows.map((row) => ({ kind: row.kind, severity: row.severity, count: Number(row.count) }));
  }
}

const LINK_CHUNK = 500;

export interface AlarmLinks {
  jobIds: string[];
  instanceIds: string[];
  openKeys: string[];
}

export type LinkedAlarm = Pick<AlarmRow, 'id' | 'job_id' | 'instance_id' | 'cause_key'>;
