import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Job } from '../../../contract/scheduler';
import { maskUrlSecretsOrNull } from '../../../recorder/url-secrets';
import { fromFlag, toFlag } from '../../db';
import type { Database, SchedulerJobsTable } from '../../db/schema';
import { TableWriteCounter } from '../../db/write-counter';
import { yieldToEventLoop } from '../../lib/yield-to-event-loop';

export type JobRow = Selectable<SchedulerJobsTable>;
export type NewJobRow = Insertable<SchedulerJobsTable>;

const PENDING = ['scheduled', 'launching'] as const;
/** A launched job's outcome, once judged. */
const SETTLED_STATUSES = ['captured', 'partial', 'failed'] as const;

/** What scheduling needs to know of an existing job: its identity, state, and planned times. */
const PLANNED_COLUMNS = [
  'id',
  'mosque_id',
  'friday_date',
  'status',
  'attempts',
  'mosque_name',
  'url',
  'timezone',
  'prayer_time',
  'recording_start',
  'recording_end',
  'next_run_time',
  'trigger',
  'name',
  'cancelled_by',
] as const;
export type PlannedJobRow = Pick<JobRow, (typeof PLANNED_COLUMNS)[number]>;
const INSERT_CHUNK = 250;
/** Ids per IN list: SQLite and PostgreSQL cap the parameters of one statement. */
const IDS_PER_QUERY = 500;

export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    name: row.name,
    func: row.func,
    next_run_time: row.next_run_time,
    trigger: row.trigger,
    kind: row.kind,
    status: row.status,
    mosque_id: row.mosque_id,
    mosque_name: row.mosque_name,
    friday_date: row.friday_date,
    prayer_time: row.prayer_time,
    timezone: row.timezone,
    recording_start: row.recording_start,
    recording_end: row.recording_end,
    url: maskUrlSecretsOrNull(row.url),
    duration: row.duration,
    attempts: row.attempts,
    last_error: maskUrlSecretsOrNull(row.last_error),
    late: fromFlag(row.late),
    instance_id: row.instance_id,
    launched_at: row.launched_at,
    outcome_reason: maskUrlSecretsOrNull(row.outcome_reason),
    covered_seconds: row.covered_seconds === null ? null : Number(row.covered_seconds),
    expected_seconds: row.expected_seconds === null ? null : Number(row.expected_seconds),
    recording_id: row.recording_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** recording_start then id (recording jobs always have a start). */
function bySoonestStart(a: JobRow, b: JobRow): number {
  const x = a.recording_start ?? '';
  const y = b.recording_start ?? '';
  if (x !== y) return x < y ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const changed = (result: { numUpdatedRows: bigint } | undefined) => (result?.numUpdatedRows ?? 0n) > 0n;

/**
 * Jobs and the on/off state. Every transition is a conditional UPDATE on the expected status (and
 * claimant), so two scheduler processes on one database cannot both act on one job.
 */
export class SchedulerRepository {
  private readonly db: Kysely<Database>;
  private readonly writes = new TableWriteCounter('scheduler_jobs');

  constructor(db: Kysely<Database>) {
    this.db = db.withPlugin(this.writes);
  }

  /** Writes to the jobs this process completed: a read cached under an older count is stale. */
  get writeCount(): number {
    return this.writes.count;
  }

  async isRunning(now: string): Promise<boolean> {
    const row = await this.db.selectFrom('scheduler_state').select('running').where('id', '=', 1).executeTakeFirst();
    if (row) return fromFlag(row.running);
    await this.db
      .insertInto('scheduler_state')
      .values({ id: 1, running: 1, updated_at: now, updated_by: null })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return this.isRunning(now);
  }

  async setRunning(running: boolean, now: string, by: string | null): Promise<void> {
    await this.isRunning(now);
    await this.db
      .updateTable('scheduler_state')
      .set({ running: toFlag(running), updated_at: now, updated_by: by })
      .where('id', '=', 1)
      .execute();
  }

  /**
   * Takes (or extends) the planning lease until `until`; false while another server holds an unexpired
   * one, unless that holder is `deadHolder`. One conditional update, so of several servers asking at
   * once exactly one gets it.
   */
  async takePlanningLease(holder: string, now: string, until: string, deadHolder?: string): Promise<boolean> {
    await this.isRunning(now); // the state row exists
    const result = await this.db
      .updateTable('scheduler_state')
      .set({ planning_by: holder, planning_until: until })
      .where('id', '=', 1)
      .where((eb) =>
        eb.or([
          eb('planning_by', 'is', null),
          eb('planning_by', '=', holder),
          eb('planning_until', '<', now),
          ...(deadHolder ? [eb('planning_by', '=', deadHolder)] : []),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async planningLeaseHolder(): Promise<string | null> {
    const row = await this.db
      .selectFrom('scheduler_state')
      .select('planning_by')
      .where('id', '=', 1)
      .executeTakeFirst();
    return row?.planning_by ?? null;
  }

  async releasePlanningLease(holder: string): Promise<void> {
    await this.db
      .updateTable('scheduler_state')
      .set({ planning_by: null, planning_until: null })
      .where('id', '=', 1)
      .where('planning_by', '=', holder)
      .execute();
  }

  findById(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('scheduler_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Pending jobs, the recurring one, and jobs touched since `since` (all jobs when since is null). */
  list(since: string | null): Promise<JobRow[]> {
    let query = this.db.selectFrom('scheduler_jobs').selectAll();
    if (since !== null) {
      query = query.where((eb) =>
        eb.or([eb('status', 'in', PENDING), eb('kind', '=', 'recurring'), eb('updated_at', '>=', since)]),
      );
    }
    return query.orderBy('next_run_time', 'asc').orderBy('recording_start', 'asc').orderBy('id', 'asc').execute();
  }

  async countListed(since: string): Promise<number> {
    const row = await this.db
      .selectFrom('scheduler_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.or([eb('status', 'in', PENDING), eb('kind', '=', 'recurring'), eb('updated_at', '>=', since)]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countPendingRecordings(): Promise<number> {
    const row = await this.db
      .selectFrom('scheduler_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'recording')
      .where('status', 'in', PENDING)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every job by status (monitoring's capture_scheduler_jobs). */
  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('scheduler_jobs')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  }

  /**
   * Recording jobs waiting to launch, soonest first. One ordered walk of the upcoming index per
   * pending status, each stopping at the limit, then merged: no sort of every pending job.
   */
  async upcoming(limit: number): Promise<JobRow[]> {
    const perStatus = await Promise.all(
      PENDING.map((status) =>
        this.db
          .selectFrom('scheduler_jobs')
          .selectAll()
          .where('kind', '=', 'recording')
          .where('status', '=', status)
          .orderBy('recording_start', 'asc')
          .orderBy('id', 'asc')
          .limit(limit)
          .execute(),
      ),
    );
    return perStatus.flat().sort(bySoonestStart).slice(0, limit);
  }

  /** The next scheduled job to act on (recording or recurring). */
  nextScheduled(kind?: 'recording'): Promise<JobRow | undefined> {
    let query = this.db
      .selectFrom('scheduler_jobs')
      .selectAll()
      .where('status', '=', 'scheduled')
      .where('next_run_time', 'is not', null);
    if (kind) query = query.where('kind', '=', kind);
    return query.orderBy('next_run_time', 'asc').limit(1).executeTakeFirst();
  }

  findDue(now: string, limit: number): Promise<JobRow[]> {
    return this.db
      .selectFrom('scheduler_jobs')
      .selectAll()
      .where('status', '=', 'scheduled')
      .where('kind', '=', 'recording')
      .where('next_run_time', '<=', now)
      .orderBy('next_run_time', 'asc')
      .limit(limit)
      .execute();
  }

  listLaunching(): Promise<JobRow[]> {
    return this.db.selectFrom('scheduler_jobs').selectAll().where('status', '=', 'launching').execute();
  }

  /** Recording jobs of the given Fridays (mosque-local dates): the columns scheduling compares. */
  recordingsFor(fridayDates: string[]): Promise<PlannedJobRow[]> {
    if (fridayDates.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('scheduler_jobs')
      .select(PLANNED_COLUMNS)
      .where('kind', '=', 'recording')
      .where('friday_date', 'in', fridayDates)
      .execute();
  }

  /*
   * The two reads below filter in SQL only on what the (mosque_id, friday_date) index serves, and the
   * rest here: with kind and status in the WHERE, SQLite (which has no statistics unless ANALYZE runs)
   * preferred the upcoming index on (kind, status) and walked every recording job.
   */

  /** Recording jobs of these mosques on these Fridays: re-planning a few mosques reads their few jobs. */
  async recordingsOfMosques(mosqueIds: string[], fridayDates: string[]): Promise<PlannedJobRow[]> {
    if (fridayDates.length === 0) return [];
    const rows: (PlannedJobRow & { kind: string })[] = [];
    for (let i = 0; i < mosqueIds.length; i += IDS_PER_QUERY) {
      rows.push(
        ...(await this.db
          .selectFrom('scheduler_jobs')
          .select([...PLANNED_COLUMNS, 'kind'])
          .where('mosque_id', 'in', mosqueIds.slice(i, i + IDS_PER_QUERY))
          .where('friday_date', 'in', fridayDates)
          .execute()),
      );
    }
    return rows.filter((row) => row.kind === 'recording').map(({ kind: _kind, ...row }) => row);
  }

  /** Pending, never-attempted recording jobs due after `now` (of these mosques, or all). */
  async untouchedFuture(now: string, mosqueIds?: string[]): Promise<Pick<JobRow, 'id' | 'mosque_id'>[]> {
    if (mosqueIds === undefined) {
      return this.db
        .selectFrom('scheduler_jobs')
        .select(['id', 'mosque_id'])
        .where('kind', '=', 'recording')
        .where('status', '=', 'scheduled')
        .where('attempts', '=', 0)
        .where('next_run_time', '>', now)
        .execute();
    }
    const rows: Pick<JobRow, 'id' | 'mosque_id' | 'kind' | 'status' | 'attempts'>[] = [];
    for (let i = 0; i < mosqueIds.length; i += IDS_PER_QUERY) {
      rows.push(
        ...(await this.db
          .selectFrom('scheduler_jobs')
          .select(['id', 'mosque_id', 'kind', 'status', 'attempts'])
          .where('mosque_id', 'in', mosqueIds.slice(i, i + IDS_PER_QUERY))
          .where('next_run_time', '>', now)
          .execute()),
      );
    }
    return rows
      .filter((row) => row.kind === 'recording' && row.status === 'scheduled' && row.attempts === 0)
      .map(({ id, mosque_id }) => ({ id, mosque_id }));
  }

  /*
   * Bulk writes are single statements, each atomic on its own, rather than one long transaction:
   * nothing here needs all-or-nothing (a rerun fills the gaps), and a SQLite write lock must never be
   * held across an await, where another connection of the same process could be blocked waiting on it.
   */

  /** Inserts jobs; one that another process created meanwhile (same mosque and Friday) is left alone. */
  async insertMany(rows: NewJobRow[]): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      // Requests waiting behind a fleet's worth of inserts go between chunks.
      if (i > 0) await yieldToEventLoop();
      const result = await this.db
        .insertInto('scheduler_jobs')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return inserted;
  }

  /** Applies changes to jobs still scheduled and never attempted; returns how many applied. */
  async updateUntouched(updates: { id: string; values: Updateable<SchedulerJobsTable> }[]): Promise<number> {
    let applied = 0;
    for (const { id, values } of updates) {
      const result = await this.db
        .updateTable('scheduler_jobs')
        .set(values)
        .where('id', '=', id)
        .where('status', '=', 'scheduled')
        .where('attempts', '=', 0)
        .executeTakeFirst();
      if (changed(result)) applied++;
    }
    return applied;
  }

  async insertIfMissing(row: NewJobRow): Promise<void> {
    await this.db
      .insertInto('scheduler_jobs')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  async update(id: string, values: Updateable<SchedulerJobsTable>): Promise<void> {
    await this.db.updateTable('scheduler_jobs').set(values).where('id', '=', id).execute();
  }

  /** Claims a due job for launching; false when another process (or a cancel) got there first. */
  async claim(id: string, expectedRunTime: string, claimant: string, now: string, late: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set((eb) => ({
        status: 'launching',
        claimed_by: claimant,
        claimed_at: now,
        attempts: eb('attempts', '+', 1),
        late: late ? 1 : eb.ref('late'),
        updated_at: now,
      }))
      .where('id', '=', id)
      .where('status', '=', 'scheduled')
      .where('next_run_time', '=', expectedRunTime)
      .executeTakeFirst();
    return changed(result);
  }

  /** Moves a job this process holds in 'launching' on; false when the claim was lost. */
  async settleClaim(id: string, claimant: string, values: Updateable<SchedulerJobsTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set({ claimed_by: null, claimed_at: null, ...values })
      .where('id', '=', id)
      .where('status', '=', 'launching')
      .where('claimed_by', '=', claimant)
      .executeTakeFirst();
    return changed(result);
  }

  /**
   * Records the recorder a launch made on a job whose claim was taken over (released, re-claimed, or
   * marked missed meanwhile): the job keeps its first launch's instance, unless it already has one.
   */
  async keepLaunch(
    id: string,
    launch: { instance_id: string; recording_id: string | null; launched_at: string },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set({
        ...launch,
        status: 'launched',
        claimed_by: null,
        claimed_at: null,
        next_run_time: null,
        last_error: null,
        outcome_reason: null,
        updated_at: launch.launched_at,
      })
      .where('id', '=', id)
      .where('instance_id', 'is', null)
      .where('status', 'in', ['scheduled', 'launching', 'missed'])
      .executeTakeFirst();
    return changed(result);
  }

  /** Releases a claim left by a dead process so the job launches again (same idempotency key). */
  async releaseClaim(id: string, claimant: string, now: string, note: string): Promise<boolean> {
    return this.settleClaim(id, claimant, {
      status: 'scheduled',
      next_run_time: now,
      last_error: note,
      updated_at: now,
    });
  }

  /** Sets a scheduled job's status (missed, cancelled) unless someone moved it first. */
  async finishScheduled(
    id: string,
    status: 'missed' | 'cancelled',
    now: string,
    note: string | null,
    cancelledBy: string | null = null,
  ): Promise<boolean> {
    const values: Updateable<SchedulerJobsTable> = {
      status,
      next_run_time: null,
      updated_at: now,
      cancelled_by: cancelledBy,
    };
    if (note !== null) {
      values.last_error = note;
      values.outcome_reason = note;
    }
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set(values)
      .where('id', '=', id)
      .where('status', '=', 'scheduled')
      .executeTakeFirst();
    return changed(result);
  }

  /** Launched recordings whose window has ended: their outcome is due. */
  listLaunchedEnded(now: string): Promise<JobRow[]> {
    return this.db
      .selectFrom('scheduler_jobs')
      .selectAll()
      .where('status', '=', 'launched')
      .where('recording_end', '<=', now)
      .execute();
  }

  /** Records a launched job's outcome unless another process did first. */
  async settleOutcome(id: string, values: Updateable<SchedulerJobsTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set(values)
      .where('id', '=', id)
      .where('status', '=', 'launched')
      .executeTakeFirst();
    return changed(result);
  }

  /** The settled recording job of an instance, if any. */
  findSettledByInstance(instanceId: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom('scheduler_jobs')
      .selectAll()
      .where('instance_id', '=', instanceId)
      .where('status', 'in', SETTLED_STATUSES)
      .executeTakeFirst();
  }

  /** Replaces a settled job's outcome (its recording's changed afterwards) unless it is no longer settled. */
  async reviseOutcome(id: string, values: Updateable<SchedulerJobsTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set(values)
      .where('id', '=', id)
      .where('status', 'in', SETTLED_STATUSES)
      .executeTakeFirst();
    return changed(result);
  }

  /** Schedules again a job the system cancelled (its mosque was inactive or gone, and is back). */
  async reviveSystemCancelled(id: string, values: Updateable<SchedulerJobsTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set({
        ...values,
        status: 'scheduled',
        attempts: 0,
        late: 0,
        last_error: null,
        outcome_reason: null,
        instance_id: null,
      })
      .where('id', '=', id)
      .where('status', '=', 'cancelled')
      .where('cancelled_by', 'is', null)
      .executeTakeFirst();
    return changed(result);
  }

  /** Moves a cancelled job back to scheduled (an operator's restore); false when it is no longer cancelled. */
  async restoreCancelled(id: string, nextRunTime: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set({
        status: 'scheduled',
        next_run_time: nextRunTime,
        cancelled_by: null,
        outcome_reason: null,
        last_error: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', 'cancelled')
      .executeTakeFirst();
    return changed(result);
  }

  /** Recording jobs of one Friday (mosque-local date), every column. */
  forFriday(fridayDate: string): Promise<JobRow[]> {
    return this.db
      .selectFrom('scheduler_jobs')
      .selectAll()
      .where('kind', '=', 'recording')
      .where('friday_date', '=', fridayDate)
      .execute();
  }

  /** Scheduled jobs starting between now and `until`: their pre-flight checks are due. */
  startingBefore(now: string, until: string): Promise<JobRow[]> {
    return (
      this.db
        .selectFrom('scheduler_jobs')
        .selectAll()
        .where('kind', '=', 'recording')
        .where('status', '=', 'scheduled')
        // A scheduled recording not yet started runs at or before its start (planning sets next_run_time
        // to recording_start less the lead time): the bound lets the (status, next_run_time) index skip
        // later Fridays' jobs.
        .where('next_run_time', '<=', until)
        .where('recording_start', '>', now)
        .where('recording_start', '<=', until)
        .orderBy('recording_start', 'asc')
        .execute()
    );
  }

  /** Jobs of these Fridays whose recordings are still to be written (pending or recording) and end after `now`. */
  unfinishedEndingAfter(
    now: string,
    fridayDates: string[],
  ): Promise<Pick<JobRow, 'recording_start' | 'recording_end'>[]> {
    return this.db
      .selectFrom('scheduler_jobs')
      .select(['recording_start', 'recording_end'])
      .where('kind', '=', 'recording')
      .where('friday_date', 'in', fridayDates)
      .where('status', 'in', ['scheduled', 'launching', 'launched'])
      .where('recording_end', '>', now)
      .execute();
  }

  /** Moves the recurring job's next run from `expected` to `next`; only one process wins a run. */
  async advanceRecurring(id: string, expected: string, next: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduler_jobs')
      .set((eb) => ({ next_run_time: next, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('id', '=', id)
      .where('status', '=', 'scheduled')
      .where('next_run_time', '=', expected)
      .executeTakeFirst();
    return changed(result);
  }
}
