import path from 'node:path';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import {
  operatorWhoStopped,
  type GapCause,
  type Recording,
  type RecordingGap,
  type RecordingStatus,
} from '../../../contract/instances';
import { contentLostSeconds } from '../../../recorder/recorder-coverage';
import { maskUrlSecrets, maskUrlSecretsOrNull } from '../../../recorder/url-secrets';
import type { ResumePoint } from '../../capture/provider';
import type { Database, RecordingsTable } from '../../db/schema';

export type RecordingRow = Selectable<RecordingsTable>;

export function toRecording(row: RecordingRow): Recording {
  return {
    id: row.id,
    instance_id: row.instance_id,
    mosque_id: row.mosque_id,
    url: maskUrlSecrets(row.url),
    status: row.status,
    started_at: row.started_at,
    ended_at: row.ended_at,
    bytes: Number(row.bytes),
    duration_seconds: row.duration_seconds === null ? null : Math.round(Number(row.duration_seconds) * 1000) / 1000,
    file_name: row.file_path ? path.basename(row.file_path) : null,
    reason: maskUrlSecretsOrNull(row.reason),
    // Only a finished file with media is offered: the file is joined at the end, and an empty one is no recording.
    download_url: row.file_path && row.status !== 'recording' && Number(row.bytes) > 0 ? downloadUrl(row.id) : null,
    expected_seconds: row.expected_seconds === null ? null : Number(row.expected_seconds),
    covered_seconds: row.covered_seconds === null ? null : Number(row.covered_seconds),
    gaps: parseGaps(row.gaps).map((gap) => ({ ...gap, reason: maskUrlSecrets(gap.reason) })),
    reconnects: Number(row.reconnects),
    stopped_by: operatorWhoStopped(row.reason),
  };
}

/**
 * Downloads go through the media endpoint, which every server answers: from its own disk, from the
 * bucket, or by proxying the server whose disk holds the file (/file answered only on that server:
 * behind a load balancer, a 404 two times in three).
 */
function downloadUrl(id: string): string {
  return `/api/recordings/${encodeURIComponent(id)}/media?download=1`;
}

/** The last segment a recording's HLS recorder kept, as stored (null: none known). */
export function parseResumePoint(text: string | null): ResumePoint | null {
  if (!text) return null;
  try {
    const point = JSON.parse(text) as Partial<ResumePoint>;
    return typeof point.sequence === 'number' && typeof point.end === 'string' && Number.isFinite(Date.parse(point.end))
      ? { sequence: point.sequence, end: point.end }
      : null;
  } catch {
    return null;
  }
}

export function parseGaps(text: string): RecordingGap[] {
  try {
    const gaps = JSON.parse(text) as unknown;
    return Array.isArray(gaps) ? (gaps as (RecordingGap | LegacyGap)[]).map(withCause) : [];
  } catch {
    return [];
  }
}

/** A gap stored before gaps had causes: a sentence only. */
type LegacyGap = Omit<RecordingGap, 'cause' | 'content_lost_seconds'> & Partial<RecordingGap>;

/** A stored gap with its cause; one stored before causes existed gets the cause its sentence names. */
function withCause(gap: RecordingGap | LegacyGap): RecordingGap {
  if (gap.cause && gap.content_lost_seconds !== undefined) return gap as RecordingGap;
  const cause = gap.cause ?? legacyCause(gap.reason);
  return {
    ...gap,
    cause,
    content_lost_seconds:
      gap.content_lost_seconds ?? contentLostSeconds(cause, Date.parse(gap.start), Date.parse(gap.end)),
  };
}

function legacyCause(reason: string): GapCause {
  if (/not live|never came|connecting/i.test(reason)) return 'not_live_yet';
  if (/stall|no media for/i.test(reason)) return 'stream_stalled';
  if (/started .* after the window opened/i.test(reason)) return 'recorder_late';
  if (/overloaded|could not keep up/i.test(reason)) return 'recorder_overloaded';
  if (/recorder|not started/i.test(reason)) return 'recorder_down';
  if (/store/i.test(reason)) return 'store_unreachable';
  return 'stream_dropped';
}

/** A finished recording of several runs with the window its instance was launched for. */
export type RecordingToJoin = RecordingRow & { window_start: string | null; window_end: string | null };
export type RecordingAwaitingResult = RecordingToJoin & { provider_instance_id: string | null; job_id: string | null };

export interface RecordingFilter {
  limit: number;
  instance_id?: string;
  mosque_id?: string;
  status?: RecordingStatus;
}

const IDS_PER_QUERY = 500;

export class RecordingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(filter: RecordingFilter): Promise<RecordingRow[]> {
    let query = this.db.selectFrom('recordings').selectAll();
    if (filter.instance_id) query = query.where('instance_id', '=', filter.instance_id);
    if (filter.mosque_id) query = query.where('mosque_id', '=', filter.mosque_id);
    if (filter.status) query = query.where('status', '=', filter.status);
    return query.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }

  findById(id: string): Promise<RecordingRow | undefined> {
    return this.db.selectFrom('recordings').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** In chunks: SQLite and PostgreSQL cap the parameters of one statement (a Friday ledger of a large fleet asks for thousands). */
  async findByIds(ids: readonly string[]): Promise<RecordingRow[]> {
    const rows: RecordingRow[] = [];
    for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
      rows.push(
        ...(await this.db
          .selectFrom('recordings')
          .selectAll()
          .where('id', 'in', ids.slice(start, start + IDS_PER_QUERY))
          .execute()),
      );
    }
    return rows;
  }

  findByInstance(instanceId: string): Promise<RecordingRow | undefined> {
    return this.db.selectFrom('recordings').selectAll().where('instance_id', '=', instanceId).executeTakeFirst();
  }

  /**
   * Recordings the fleet relaunched (several runs) that are over, whose instance has ended (so no
   * machine still uploads), with a file in the store, not yet joined from the store by the server.
   */
  awaitingStoreJoin(): Promise<RecordingToJoin[]> {
    return this.db
      .selectFrom('recordings')
      .innerJoin('instances', 'instances.id', 'recordings.instance_id')
      .selectAll('recordings')
      .select(['instances.window_start', 'instances.window_end'])
      .where('recordings.status', '!=', 'recording')
      .where('recordings.runs', '!=', '[]')
      .where('recordings.store_joined_at', 'is', null)
      .where('recordings.file_path', 'is not', null)
      .where('instances.state', 'in', ['stopped', 'terminated'])
      .orderBy('recordings.ended_at')
      .execute();
  }

  /** Recordings judged without their recorder's result, with their instance's recorder, job and window. */
  awaitingLateResult(): Promise<RecordingAwaitingResult[]> {
    return this.db
      .selectFrom('recordings')
      .innerJoin('instances', 'instances.id', 'recordings.instance_id')
      .selectAll('recordings')
      .select(['instances.provider_instance_id', 'instances.job_id', 'instances.window_start', 'instances.window_end'])
      .where('recordings.provisional_until', 'is not', null)
      .execute();
  }

  insert(values: Insertable<RecordingsTable>): Promise<RecordingRow> {
    return this.db.insertInto('recordings').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: string, values: Updateable<RecordingsTable>): Promise<RecordingRow | undefined> {
    return this.db.updateTable('recordings').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('recordings')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }
}
