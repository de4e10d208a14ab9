import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Instance, InstanceState, RecordingStatus } from '../../../contract/instances';
import { maskUrlSecrets } from '../../../recorder/url-secrets';
import type { Database, InstancesTable } from '../../db/schema';

export type InstanceRow = Selectable<InstancesTable>;
export type InstanceListRow = InstanceRow & { recording_status: RecordingStatus | null };
/** An EC2 row as the cost estimate reads it: its machines' runs, and the Friday it is filed under. */
export type CostRow = Pick<
  InstanceRow,
  'id' | 'provider_instance_id' | 'instance_type' | 'launch_time' | 'ended_at'
> & { runs: string | null; friday: string };

export const ACTIVE_STATES: InstanceState[] = ['pending', 'running'];
/** States in which a recorder may still be working, so the fleet keeps reconciling the row. */
export const LIVE_STATES: InstanceState[] = ['pending', 'running', 'stopping'];

/** Hours from launch to end (or now), as the console's runtime column wants it. */
export function runtimeHours(row: Pick<InstanceRow, 'launch_time' | 'ended_at'>, now: Date): number {
  const end = row.ended_at ? Date.parse(row.ended_at) : now.getTime();
  const hours = Math.max(0, end - Date.parse(row.launch_time)) / 3_600_000;
  return Math.round(hours * 10_000) / 10_000;
}

export function toInstance(row: InstanceListRow, now: Date): Instance {
  return {
    id: row.id,
    instance_id: row.provider_instance_id ?? row.id,
    name: row.name,
    state: row.state,
    instance_type: row.instance_type,
    runtime_hours: runtimeHours(row, now),
    mosque_id: row.mosque_id,
    launch_time: row.launch_time,
    // The full URL (with its password or token) stays here: the recorder gets it, operators never.
    url: maskUrlSecrets(row.url),
    method: row.method,
    duration: row.duration,
    recording_status: row.recording_status,
  };
}

export class InstancesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private listQuery() {
    return this.db
      .selectFrom('instances')
      .leftJoin('recordings', 'recordings.instance_id', 'instances.id')
      .selectAll('instances')
      .select('recordings.status as recording_status');
  }

  /** The newest `limit` instances, newest first, with their recording's status. */
  listRecent(limit: number): Promise<InstanceListRow[]> {
    return this.listQuery()
      .orderBy('instances.launch_time', 'desc')
      .orderBy('instances.id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * The EC2 rows launched since `from` (ISO), each with its recording's runs and its Friday: its
   * scheduler job's, else the UTC date its window opened (or it launched).
   */
  costRows(from: string): Promise<CostRow[]> {
    return this.db
      .selectFrom('instances')
      .leftJoin('recordings', 'recordings.instance_id', 'instances.id')
      .leftJoin('scheduler_jobs', 'scheduler_jobs.id', 'instances.job_id')
      .select([
        'instances.id',
        'instances.provider_instance_id',
        'instances.instance_type',
        'instances.launch_time',
        'instances.ended_at',
        'recordings.runs',
        sql<string>`coalesce(scheduler_jobs.friday_date, substr(coalesce(instances.window_start, instances.launch_time), 1, 10))`.as(
          'friday',
        ),
      ])
      .where('instances.provider', '=', 'aws')
      .where('instances.launch_time', '>=', from)
      .execute();
  }

  /** Recording jobs still to launch whose launch time is before `until` (ISO): the coming wave. */
  async jobsDueBefore(until: string): Promise<number> {
    const row = await this.db
      .selectFrom('scheduler_jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('kind', '=', 'recording')
      .where('status', '=', 'scheduled')
      .where('next_run_time', '<=', until)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  findById(id: string): Promise<InstanceRow | undefined> {
    return this.db.selectFrom('instances').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * By the fleet's id or the provider's instance id (the console may send either). The fleet's id is
   * looked up first on its own: an OR of the two cannot use the primary key, and every launch resolves
   * its instance here, so it would read the whole (ever-growing) table each time.
   */
  async findByAnyId(id: string): Promise<InstanceRow | undefined> {
    const own = await this.db.selectFrom('instances').selectAll().where('id', '=', id).executeTakeFirst();
    if (own) return own;
    return this.db
      .selectFrom('instances')
      .selectAll()
      .where('provider_instance_id', '=', id)
      .orderBy('launch_time', 'desc')
      .executeTakeFirst();
  }

  findByJobId(jobId: string): Promise<InstanceRow | undefined> {
    return this.db.selectFrom('instances').selectAll().where('job_id', '=', jobId).executeTakeFirst();
  }

  findByProviderId(scope: string, providerInstanceId: string): Promise<InstanceRow | undefined> {
    return this.db
      .selectFrom('instances')
      .selectAll()
      .where('scope', '=', scope)
      .where('provider_instance_id', '=', providerInstanceId)
      .executeTakeFirst();
  }

  /** The scopes that have rows whose recorder may still be working. */
  /** How many live rows each scope has. */
  async liveCountsByScope(): Promise<{ scope: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('instances')
      .select((eb) => ['scope', eb.fn.countAll<string | number>().as('count')])
      .where('state', 'in', LIVE_STATES)
      .groupBy('scope')
      .execute();
    return rows.map((row) => ({ scope: row.scope, count: Number(row.count) }));
  }

  async liveScopes(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('instances')
      .select('scope')
      .distinct()
      .where('state', 'in', LIVE_STATES)
      .execute();
    return rows.map((row) => row.scope);
  }

  /** Rows of this scope whose recorder may still be working. */
  listLive(scope: string): Promise<InstanceRow[]> {
    return this.db
      .selectFrom('instances')
      .selectAll()
      .where('scope', '=', scope)
      .where('state', 'in', LIVE_STATES)
      .execute();
  }

  /** Running and pending rows, of one scope or (undefined) of every server's. */
  listActive(scope: string | undefined): Promise<InstanceRow[]> {
    return this.db
      .selectFrom('instances')
      .selectAll()
      .$if(scope !== undefined, (qb) => qb.where('scope', '=', scope as string))
      .where('state', 'in', ACTIVE_STATES)
      .orderBy('launch_time')
      .execute();
  }

  /**
   * Moves a live row of scope `from` to scope `to`, as long as it is still live and of `from`: of
   * several servers taking one row at once exactly one gets it (the row; the others undefined).
   */
  takeOver(id: string, from: string, to: string, now: string): Promise<InstanceRow | undefined> {
    return this.db
      .updateTable('instances')
      .set({ scope: to, updated_at: now })
      .where('id', '=', id)
      .where('scope', '=', from)
      .where('state', 'in', LIVE_STATES)
      .returningAll()
      .executeTakeFirst();
  }

  insert(values: Insertable<InstancesTable>): Promise<InstanceRow> {
    return this.db.insertInto('instances').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: string, values: Updateable<InstancesTable>): Promise<InstanceRow | undefined> {
    return this.db.updateTable('instances').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('instances').where('id', '=', id).execute();
  }

  async countByState(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('instances')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }
}
