import type { NewJobRow } from '../server/modules/scheduler/repository';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A Friday recording job as the scheduler writes it, for tests that seed a database directly: its
 * window opens at `start` and lasts two hours, prayer 20 minutes in; `extra` sets any other column.
 * Every column is named: a multi-row insert on SQLite has no DEFAULT for a missing one.
 */
export function fridayJobRow(id: string, start: number | string, extra: Partial<NewJobRow> = {}): NewJobRow {
  const startMs = typeof start === 'number' ? start : Date.parse(start);
  const written = new Date().toISOString();
  return {
    id,
    kind: 'recording',
    name: `Friday recording: ${id}`,
    func: 'record_friday_prayer',
    trigger: `date[${iso(startMs)}]`,
    next_run_time: iso(startMs),
    status: 'scheduled',
    mosque_id: id,
    mosque_name: id,
    friday_date: iso(startMs).slice(0, 10),
    prayer_time: iso(startMs + 20 * MINUTE),
    timezone: 'UTC',
    recording_start: iso(startMs),
    recording_end: iso(startMs + 120 * MINUTE),
    url: null,
    duration: 7200,
    width: 320,
    height: 240,
    attempts: 0,
    late: 0,
    last_error: null,
    instance_id: null,
    claimed_by: null,
    claimed_at: null,
    launched_at: null,
    created_at: written,
    updated_at: written,
    ...extra,
  };
}
