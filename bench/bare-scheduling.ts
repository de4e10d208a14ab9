/**
 * The scheduler benchmark's baselines: the same three jobs as the product's figures, done the bare
 * way (a bare Fastify route, adhan and the time-zone database, better-sqlite3 on the same database
 * file), so each figure is held against a floor doing the same work with the same caching:
 * - start: the coming Friday's prayer for every mosque, one job row each, inserted in one transaction;
 * - again: the same plans (kept in memory from the start, as the product keeps its prayer times),
 *   read back the Fridays' job rows and find each one unchanged;
 * - forceRefresh: again, comparing every planned time with its row, then the untouched future jobs
 *   read and those of mosques no longer planned cancelled.
 * It skips what the product adds to the job (its planning lease, alarms, activity log, the runner's
 * re-arm, the rare Friday whose prayer has passed or lands on another local date): that is the gap.
 */
import { tzOffset } from '@date-fns/tz';
import { Coordinates, PrayerTimes } from 'adhan';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { RECORDING_JOB_FUNC } from '../contract/scheduler';
import { defaultMethodFor, parametersFor } from '../server/modules/prayer-times/methods';
import { DEFAULT_DURATION_SECONDS, DEFAULT_HEIGHT, DEFAULT_WIDTH } from '../server/modules/scheduler/policy';

export interface BareMosque {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  timezone: string;
  country_code: string;
  fixed_jumuah_time: string | null;
  url: string;
}

interface PlannedJob {
  id: string;
  mosque_id: string;
  mosque_name: string;
  friday_date: string;
  prayer_time: string;
  recording_start: string;
  recording_end: string;
  url: string;
  timezone: string;
}

const LEAD_MS = 20 * 60_000;
const offsetMs = (zone: string, at: number) => tzOffset(zone, new Date(at)) * 60_000;

function plan(mosque: BareMosque, now: Date): PlannedJob {
  const local = new Date(now.getTime() + offsetMs(mosque.timezone, now.getTime()));
  const friday = new Date(
    Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + ((5 - local.getUTCDay() + 7) % 7)),
  );
  let prayer: Date;
  if (mosque.fixed_jumuah_time) {
    const [hour, minute] = mosque.fixed_jumuah_time.split(':').map(Number);
    const wall = friday.getTime() + (hour * 60 + minute) * 60_000;
    prayer = new Date(wall - offsetMs(mosque.timezone, wall));
  } else {
    const coordinates = new Coordinates(mosque.latitude, mosque.longitude);
    const noon = new Date(friday.getUTCFullYear(), friday.getUTCMonth(), friday.getUTCDate(), 12);
    prayer = new PrayerTimes(coordinates, noon, parametersFor(defaultMethodFor(mosque.country_code), coordinates))
      .dhuhr;
  }
  const fridayDate = friday.toISOString().slice(0, 10);
  const start = prayer.getTime() - LEAD_MS;
  return {
    id: `friday-${mosque.id}-${fridayDate}`,
    mosque_id: mosque.id,
    mosque_name: mosque.name,
    friday_date: fridayDate,
    prayer_time: prayer.toISOString(),
    recording_start: new Date(start).toISOString(),
    recording_end: new Date(start + DEFAULT_DURATION_SECONDS * 1000).toISOString(),
    url: mosque.url,
    timezone: mosque.timezone,
  };
}

const COMPARED = ['mosque_name', 'url', 'timezone', 'prayer_time', 'recording_start', 'recording_end'] as const;

/** A bare Fastify app on its own connection to `file`, planning `mosques`; each call answers its milliseconds. */
export async function bareScheduler(file: string, mosques: BareMosque[], now: Date) {
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const insert = sqlite.prepare(
    `INSERT OR IGNORE INTO scheduler_jobs (id, kind, name, func, trigger, next_run_time, status, mosque_id, mosque_name, friday_date,
      prayer_time, timezone, recording_start, recording_end, url, duration, width, height, attempts, late, created_at, updated_at)
     VALUES (@id, 'recording', @name, '${RECORDING_JOB_FUNC}', @trigger, @recording_start, 'scheduled', @mosque_id, @mosque_name, @friday_date,
      @prayer_time, @timezone, @recording_start, @recording_end, @url, ${DEFAULT_DURATION_SECONDS}, ${DEFAULT_WIDTH}, ${DEFAULT_HEIGHT}, 0, 0, @now, @now)`,
  );
  const insertAll = sqlite.transaction((jobs: PlannedJob[], nowIso: string) => {
    let created = 0;
    for (const job of jobs)
      created += insert.run({
        ...job,
        name: `Friday recording: ${job.mosque_name}`,
        trigger: `date[${job.recording_start.replace(/\.000Z$/, 'Z')}]`,
        now: nowIso,
      }).changes;
    return created;
  });
  const untouchedFuture = sqlite.prepare(
    "SELECT id, mosque_id FROM scheduler_jobs WHERE kind = 'recording' AND status = 'scheduled' AND attempts = 0 AND next_run_time > ?",
  );
  const cancel = sqlite.prepare(
    "UPDATE scheduler_jobs SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'scheduled'",
  );
  let plans: PlannedJob[] = [];

  const existing = (): Map<string, Record<string, unknown>> => {
    const dates = [...new Set(plans.map((p) => p.friday_date))];
    const rows = sqlite
      .prepare(
        `SELECT mosque_id, friday_date, ${COMPARED.join(', ')} FROM scheduler_jobs WHERE kind = 'recording' AND friday_date IN (${dates.map(() => '?').join(', ')})`,
      )
      .all(...dates) as Record<string, unknown>[];
    return new Map(rows.map((row) => [`${String(row.mosque_id)}|${String(row.friday_date)}`, row]));
  };
  const unchanged = (compareTimes: boolean) => {
    const rows = existing();
    return plans.filter((p) => {
      const row = rows.get(`${p.mosque_id}|${p.friday_date}`);
      return row !== undefined && (!compareTimes || COMPARED.every((key) => row[key] === p[key]));
    }).length;
  };

  const app = Fastify({ logger: false });
  app.post('/start', async () => {
    plans = mosques.map((m) => plan(m, now));
    return { created: insertAll(plans, now.toISOString()) };
  });
  app.post('/again', async () => ({ unchanged: unchanged(false) }));
  app.post('/refresh', async () => {
    const result = { unchanged: unchanged(true), cancelled: 0 };
    const planned = new Set(plans.map((p) => p.mosque_id));
    const orphans = (untouchedFuture.all(now.toISOString()) as { id: string; mosque_id: string }[]).filter(
      (row) => !planned.has(row.mosque_id),
    );
    for (const row of orphans) result.cancelled += cancel.run(now.toISOString(), row.id).changes;
    return result;
  });
  await app.ready();

  const call = async (url: '/start' | '/again' | '/refresh') => {
    const start = process.hrtime.bigint();
    const response = await app.inject({ method: 'POST', url });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (response.statusCode !== 200) throw new Error(`bare ${url} answered ${response.statusCode}: ${response.body}`);
    return { ms, data: response.json<{ created?: number; unchanged?: number }>() };
  };
  return {
    call,
    /** The planned jobs, to check they are the product's. */
    plans: () => plans,
    close: async () => {
      await app.close();
      sqlite.close();
    },
  };
}
