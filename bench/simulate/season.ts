import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../server/config';
import { ManualClock } from '../../testkit/manual-clock';
import { startWebhookReceiver } from '../../testkit/webhook-receiver';
import { drawFaults, FAULT_MIXES, type FaultMixName } from './faults';
import { pickPlace } from './places';
import { SimulatedCaptureProvider } from './provider';
import { randomFor, Random } from './random';
import { SeasonServer, STREAM_HOST } from './server';
import { tallySeason, type SeasonTally } from './tally';

export interface SeasonOptions {
  mosques: number;
  fridays: number;
  seed: number;
  faults: FaultMixName;
  /** Progress lines (one per Friday). */
  log?: (line: string) => void;
}

export interface SeasonReport extends SeasonTally {
  wallSeconds: number;
  restarts: number;
  /** Alarm notifications the webhook received (each grouped message once). */
  notifications: number;
  /** The same, by event and by the kinds of alarm each message names. */
  notificationsBy: Record<string, number>;
}

/** Monday 5 January 2026, 00:00 UTC: 52 Fridays from here cross both hemispheres' DST changes twice. */
export const SEASON_START = Date.parse('2026-01-05T00:00:00Z');
const WEEK_MS = 7 * 86_400_000;
/** Each Friday's windows open between Thursday ~21:40 UTC (UTC+14) and Saturday ~01:00 UTC (UTC-11). */
const FRIDAY_SPAN = { from: 3 * 86_400_000 + 21 * 3600_000, to: 5 * 86_400_000 + 2 * 3600_000 };
/** After a recorder dies, the season looks again so the server's reaction (a relaunch within 15 s) runs on time. */
const FOLLOW_UPS_MS = [5_000, 15_000, 60_000];
/**
 * Recorders that finished their window are seen on a 2-minute grid (the fleet reads them on its
 * next pass; the outcome waits for that reading): windows end on whole minutes all day long.
 */
const CLOSED_GRID_MS = 2 * 60_000;
const onGrid = (at: number) => Math.ceil(at / CLOSED_GRID_MS) * CLOSED_GRID_MS;

/**
 * A season of Fridays on the real server, on an accelerated clock. The clock jumps from one instant
 * where something happens to the next: a job due, a recorder ending or crashing, a follow-up look
 * after such an end, a server restart.
 */
export async function simulateSeason(options: SeasonOptions): Promise<SeasonReport> {
  const began = performance.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-season-'));
  // Every notification an operator would get goes to this webhook and is counted.
  const webhook = await startWebhookReceiver();
  const config: Config = {
    // The simulated fleet is given to the app as its driver: CAPTURE_PROVIDER (whose aws needs a bucket) is not read.
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DEMO_STREAM: '0',
      ALARM_WEBHOOK_URL: webhook.url,
    }),
    consoleDir: undefined,
  };
  const clock = new ManualClock(new Date(SEASON_START));
  const mix = FAULT_MIXES[options.faults];
  // The real window of a sermon is its job's; its faults depend only on the mosque and the week.
  const fleet = new SimulatedCaptureProvider(clock, async ({ jobId, mosqueId, now, durationMs }) => {
    const job = jobId
      ? await server.app.ctx.db.kysely
          .selectFrom('scheduler_jobs')
          .select(['recording_start', 'recording_end'])
          .where('id', '=', jobId)
          .executeTakeFirst()
      : undefined;
    const windowStart = job?.recording_start ? Date.parse(job.recording_start) : now;
    const windowEnd = job?.recording_end ? Date.parse(job.recording_end) : now + durationMs;
    const week = Math.floor((windowStart - SEASON_START) / WEEK_MS);
    return {
      windowStart,
      windowEnd,
      faults: drawFaults(mix, randomFor(options.seed, mosqueId, week), windowEnd - windowStart),
    };
  });
  let server: SeasonServer = await SeasonServer.start(config, clock, fleet);
  try {
    await seedMosques(server, options);
    const end = SEASON_START + options.fridays * WEEK_MS;
    const restarts = restartPlan(options, mix.restarts);
    const followUps: number[] = [];
    let friday = 0;
    // Windows that closed after the fleet was last read are seen at the next grid point.
    let lastRead = clock.now().getTime();
    let due = await server.nextDue();
    for (;;) {
      const now = clock.now().getTime();
      const early = fleet.nextEarlyEnd(now);
      const closed = onGrid(fleet.nextClosedEnd(lastRead));
      const next = Math.min(due, early, closed, followUps[0] ?? Infinity, restarts[0]?.at ?? Infinity, end);
      if (next >= end) break;
      clock.set(new Date(Math.max(now, next)));
      const at = clock.now().getTime();
      let readFleet = closed <= at;
      while (followUps.length > 0 && followUps[0] <= at) {
        followUps.shift();
        readFleet = true;
      }
      if (early <= at) {
        readFleet = true;
        for (const delay of FOLLOW_UPS_MS) insertSorted(followUps, early + delay);
      }
      if (restarts[0] && restarts[0].at <= at) {
        const restart = restarts.shift() as { at: number; downMs: number };
        await server.close();
        clock.advance(restart.downMs);
        server = await SeasonServer.start(config, clock, fleet);
        readFleet = true;
      }
      if (readFleet) lastRead = at;
      due = await server.step(readFleet);
      const week = Math.floor((clock.now().getTime() - SEASON_START) / WEEK_MS);
      if (week > friday) {
        friday = week;
        options.log?.(`friday ${friday}/${options.fridays} done, ${((performance.now() - began) / 1000).toFixed(1)} s`);
      }
    }
    clock.set(new Date(end));
    await server.step(true);
    // The last group window closes on the season's clock; its message then goes out in real time.
    clock.advance(3600_000);
    await server.step(true);
    await webhook.quiet(3000, 60_000);
    const tally = await tallySeason(server.app, fleet, options, SEASON_START);
    const failing = tally.summary.sermons - tally.summary.captured;
    const notifications = webhook.requests.length;
    return {
      ...tally,
      notificationsBy: countNotifications(webhook.requests.map((request) => request.body)),
      summary: {
        ...tally.summary,
        notifications,
        notifications_per_failing_friday: failing ? Math.round((notifications / failing) * 1000) / 1000 : 0,
      },
      notifications,
      wallSeconds: Math.round((performance.now() - began) / 100) / 10,
      restarts: mix.restarts.perFriday * options.fridays,
    };
  } finally {
    await server.close();
    await webhook.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Notifications by `<event> <kinds>` (a grouped message names several). */
function countNotifications(bodies: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const body of bodies) {
    const message = JSON.parse(body) as { event?: string; alarms?: { kind?: string }[] };
    const kinds = [...new Set((message.alarms ?? []).map((alarm) => alarm.kind))].sort().join('+');
    const key = `${message.event ?? '?'} ${kinds}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Active mosques at seeded places, created through the mosques service (zone and country from the coordinates). */
async function seedMosques(server: SeasonServer, options: SeasonOptions): Promise<void> {
  const { scheduler, mosques } = server.app.ctx;
  await scheduler.stop(null); // no re-planning per created mosque while seeding
  const random = new Random(options.seed);
  for (let i = 0; i < options.mosques; i++) {
    const place = pickPlace(random);
    await mosques.create({
      mosque_id: mosqueId(i),
      name: `Simulated Mosque ${i + 1}`,
      languages: ['en'],
      latitude: place.latitude,
      longitude: place.longitude,
      ID_token: `https://${STREAM_HOST}/${mosqueId(i)}/live.m3u8`,
    });
  }
  await scheduler.start(null);
}

export const mosqueId = (index: number) => `s${String(index).padStart(9, '0')}`;

function restartPlan(
  options: SeasonOptions,
  restarts: { perFriday: number; downSeconds: [number, number] },
): { at: number; downMs: number }[] {
  const plan: { at: number; downMs: number }[] = [];
  for (let week = 0; week < options.fridays; week++) {
    for (let i = 0; i < restarts.perFriday; i++) {
      const random = randomFor(options.seed, 'restart', week, i);
      const at = SEASON_START + week * WEEK_MS + Math.round(random.between(FRIDAY_SPAN.from, FRIDAY_SPAN.to));
      plan.push({ at, downMs: Math.round(random.between(restarts.downSeconds[0], restarts.downSeconds[1]) * 1000) });
    }
  }
  return plan.sort((a, b) => a.at - b.at);
}

function insertSorted(list: number[], value: number): void {
  let i = list.length;
  while (i > 0 && list[i - 1] > value) i--;
  if (list[i - 1] !== value) list.splice(i, 0, value);
}
