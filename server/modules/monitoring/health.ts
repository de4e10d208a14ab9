import fs from 'node:fs';
import { CalculationMethod, Coordinates, PrayerTimes } from 'adhan';
import { sql, type Kysely } from 'kysely';
import type { ComponentHealth, SystemHealth } from '../../../contract/monitoring';
import type { SystemStatus } from '../../../contract/live';
import type { Database } from '../../db/schema';
import type { Clock } from '../../lib/clock';

/** What one component check answers. `detail` says why it is unhealthy; it must never hold a secret. */
export interface HealthCheckResult {
  status: 'healthy' | 'unhealthy';
  detail?: string;
}

/**
 * One component's check. The capture fleet registers `aws` (its CaptureProvider's health(): ffmpeg for
 * the local driver, EC2 for the aws one), the prayer-time module may replace `prayer_times`.
 */
export type HealthCheck = () => Promise<HealthCheckResult>;

/** A check that has not answered by then counts as unhealthy. */
export const DEFAULT_CHECK_TIMEOUT_MS = 5000;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 200);

async function runCheck(check: HealthCheck, timeoutMs: number): Promise<ComponentHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HealthCheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'unhealthy', detail: `No answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
  });
  let result: HealthCheckResult;
  try {
    result = await Promise.race([check(), timeout]);
  } catch (error) {
    result = { status: 'unhealthy', detail: `Check failed: ${errorText(error)}` };
  } finally {
    clearTimeout(timer);
  }
  const healthy = result.status === 'healthy';
  return {
    status: healthy ? 'healthy' : 'unhealthy',
    detail: result.detail ?? null,
    latency_ms: Math.round((performance.now() - started) * 10) / 10,
  };
}

/** `operational` when all are healthy; `down` when the database is not; `degraded` otherwise. */
export function overallStatus(components: Record<string, ComponentHealth>): {
  status: SystemStatus;
  failing: string[];
} {
  const failing = Object.entries(components)
    .filter(([, health]) => health.status !== 'healthy')
    .map(([name]) => name);
  const status: SystemStatus = failing.includes('database') ? 'down' : failing.length > 0 ? 'degraded' : 'operational';
  return { status, failing };
}

/** The database answers a real query. */
export function databaseCheck(db: Kysely<Database>): HealthCheck {
  return async () => {
    await sql`select 1`.execute(db);
    return { status: 'healthy', detail: 'Answered a test query' };
  };
}

/** The prayer-time calculation gives the known Dhuhr of a fixed day (Mecca, 2 January 2026: 09:25 UTC). */
export const prayerTimesCheck: HealthCheck = async () => {
  const times = new PrayerTimes(
    new Coordinates(21.4225, 39.8262),
    new Date(Date.UTC(2026, 0, 2)),
    CalculationMethod.UmmAlQura(),
  );
  const expected = Date.UTC(2026, 0, 2, 9, 25);
  const got = times.dhuhr.getTime();
  if (!Number.isFinite(got) || Math.abs(got - expected) > 5 * 60_000) {
    return { status: 'unhealthy', detail: 'Prayer time calculation gave an unexpected result' };
  }
  return { status: 'healthy', detail: 'Calculates prayer times' };
};

/** Below this much free space a disk counts as full: a recording or a database write would fail soon. */
export const MIN_FREE_BYTES = 8 * 1024 * 1024;

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The file system holding `dir` has room (`what` names it in the reason: "recordings", "database"). */
export function diskSpaceCheck(what: string, dir: string, minFreeBytes = MIN_FREE_BYTES): HealthCheck {
  return async () => {
    fs.mkdirSync(dir, { recursive: true });
    const stats = await fs.promises.statfs(dir);
    const free = stats.bavail * stats.bsize;
    if (free < minFreeBytes)
      return { status: 'unhealthy', detail: `The ${what} disk is full: ${mebibytes(free)} free` };
    return { status: 'healthy', detail: `${mebibytes(free)} free on the ${what} disk` };
  };
}

const noCaptureProvider: HealthCheck = async () => ({
  status: 'unhealthy',
  detail: 'No capture provider is registered',
});

/** The named component checks. `database` and `prayer_times` are built in; `aws` waits for the capture fleet. */
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>();

  constructor(
    db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
  ) {
    this.checks.set('aws', noCaptureProvider);
    this.checks.set('prayer_times', prayerTimesCheck);
    this.checks.set('database', databaseCheck(db));
  }

  /** Adds a component, or replaces the check of one (e.g. `aws`). */
  register(name: string, check: HealthCheck): void {
    if (!/^[a-z][a-z0-9_]{0,39}$/.test(name)) throw new Error(`Health check name ${name} must be snake_case`);
    this.checks.set(name, check);
  }

  /** Runs every check at once, each bounded by the timeout. */
  async run(): Promise<SystemHealth> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await runCheck(check, this.timeoutMs)] as const),
    );
    const components = Object.fromEntries(entries) as SystemHealth['components'];
    const { status, failing } = overallStatus(components);
    return { overall_status: status, components, failing, checked_at: this.clock.now().toISOString() };
  }
}
