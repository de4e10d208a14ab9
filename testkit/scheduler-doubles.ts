import type { SchedulerPrayerTime } from '../contract/scheduler';
import type { Timer } from '../server/lib/clock';
import { localDateText, zonedParts, zonedTimeToUtc } from '../server/geo/timezone';
import { DEFAULT_DURATION_SECONDS } from '../server/modules/scheduler/policy';
import type {
  FridayPlan,
  FridayPlanner,
  LaunchRequest,
  PlanSkip,
  PreflightChecks,
  RecordingFacts,
  RecordingLauncher,
  SchedulerAlarms,
} from '../server/modules/scheduler/ports';

/*
 * Self-contained stand-ins for the scheduler's ports, for tests and the benchmarks: a planner at fixed
 * local times, a launcher that remembers, pre-flight answers a test sets, a timer a test fires.
 */

export interface PlannedMosque {
  id: string;
  name: string;
  url: string | null;
  timezone: string;
  /** Local Friday prayer time, HH:MM; null when the mosque has neither coordinates nor a fixed time. */
  fridayPrayer: string | null;
  active?: boolean;
}

const RECORDING_LEAD_MS = 20 * 60_000;
const DAY_MS = 86_400_000;

/** Plans each mosque's next Friday at a fixed local time, in its own zone (DST-correct). */
export class FixedTimePlanner implements FridayPlanner {
  constructor(public mosques: PlannedMosque[]) {}

  async planFriday(now: Date, filter: string[] | null): Promise<{ plans: FridayPlan[]; skipped: PlanSkip[] }> {
    const wanted = filter ? new Set(filter) : null;
    const plans: FridayPlan[] = [];
    const skipped: PlanSkip[] = [];
    for (const mosque of this.mosques) {
      if (mosque.active === false || (wanted && !wanted.has(mosque.id))) continue;
      if (!mosque.url) {
        skipped.push({ mosqueId: mosque.id, mosqueName: mosque.name, reason: 'No stream source configured' });
      } else if (!mosque.fridayPrayer) {
        skipped.push({ mosqueId: mosque.id, mosqueName: mosque.name, reason: "No coordinates or fixed Jumu'ah time" });
      } else {
        const prayerAt = nextFridayPrayer(now, mosque.fridayPrayer, mosque.timezone);
        plans.push({
          mosqueId: mosque.id,
          mosqueName: mosque.name,
          url: mosque.url,
          prayerAt,
          recordingStart: new Date(prayerAt.getTime() - RECORDING_LEAD_MS),
          timezone: mosque.timezone,
        });
      }
    }
    return { plans, skipped };
  }

  async activeMosques(): Promise<{ id: string; name: string }[]> {
    return this.mosques.filter((m) => m.active !== false).map((m) => ({ id: m.id, name: m.name }));
  }

  async prayerTimes(now: Date): Promise<SchedulerPrayerTime[]> {
    const { plans } = await this.planFriday(now, null);
    const local = (instant: Date, timeZone: string) =>
      new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
        instant,
      );
    return plans.map((p) => ({
      mosque_id: p.mosqueId,
      mosque_name: p.mosqueName,
      friday_prayer: p.prayerAt.toISOString(),
      recording_start: p.recordingStart.toISOString(),
      recording_time: local(p.recordingStart, p.timezone),
      prayer_time: local(p.prayerAt, p.timezone),
      timezone: p.timezone,
      calculation_method: 'Fixed',
    }));
  }
}

/** The next Friday (mosque-local) at `time` whose recording window has not ended. */
export function nextFridayPrayer(now: Date, time: string, timeZone: string): Date {
  const today = localDateText(now, timeZone);
  const daysToFriday = (5 - zonedParts(now, timeZone).weekday + 7) % 7;
  for (const extra of [0, 7]) {
    const date = new Date(Date.parse(`${today}T00:00:00Z`) + (daysToFriday + extra) * DAY_MS)
      .toISOString()
      .slice(0, 10);
    const [year, month, day] = date.split('-').map(Number);
    const [hour, minute] = time.split(':').map(Number);
    const prayerAt = zonedTimeToUtc({ year, month, day, hour, minute }, timeZone);
    if (prayerAt.getTime() - RECORDING_LEAD_MS + DEFAULT_DURATION_SECONDS * 1000 > now.getTime()) return prayerAt;
  }
  throw new Error('unreachable: a Friday a week away always lies ahead');
}

/**
 * Records launches, answers the same instance for the same idempotency key (as the real providers
 * do), and fails on demand. Each launch's recording covers, by default, its whole requested duration
 * (a perfect recorder from launch to window end); `setRecording` says otherwise.
 */
export class MemoryLauncher implements RecordingLauncher {
  readonly launches: (LaunchRequest & { instanceId: string })[] = [];
  /** Every call, including failed and repeated ones. */
  calls = 0;
  private readonly byKey = new Map<string, string>();
  private failures: string[] = [];
  private readonly recordings = new Map<string, RecordingFacts | null>();

  /** What the instance's recording holds from now on (null: it has none). */
  setRecording(instanceId: string, facts: Omit<RecordingFacts, 'recordingId'> | null): void {
    this.recordings.set(instanceId, facts && { recordingId: `rec-${instanceId}`, ...facts });
  }

  async recordingOf(instanceId: string): Promise<RecordingFacts | null> {
    if (this.recordings.has(instanceId)) return this.recordings.get(instanceId) ?? null;
    const launch = this.launches.find((l) => l.instanceId === instanceId);
    return launch
      ? { recordingId: `rec-${instanceId}`, inProgress: false, coveredSeconds: launch.duration, gaps: [], reason: null }
      : null;
  }

  async launchedFor(jobId: string): Promise<{ instanceId: string; recordingId: string } | null> {
    const launch = this.launches.find((l) => l.jobId === jobId);
    return launch ? { instanceId: launch.instanceId, recordingId: `rec-${launch.instanceId}` } : null;
  }

  /** The next `count` launches fail with `message`. */
  failNext(count: number, message = 'Capture provider unavailable'): void {
    this.failures.push(...Array<string>(count).fill(message));
  }

  async launch(request: LaunchRequest): Promise<{ instanceId: string; recordingId: string }> {
    this.calls++;
    const failure = this.failures.shift();
    if (failure) throw new Error(failure);
    const existing = this.byKey.get(request.idempotencyKey);
    if (existing) return { instanceId: existing, recordingId: `rec-${existing}` };
    const instanceId = `i-${String(this.launches.length + 1).padStart(6, '0')}`;
    this.byKey.set(request.idempotencyKey, instanceId);
    this.launches.push({ ...request, instanceId });
    return { instanceId, recordingId: `rec-${instanceId}` };
  }
}

/** Pre-flight checks whose answers a test sets. */
export class MemoryPreflightChecks implements PreflightChecks {
  providerProblem: string | null = null;
  /** Provider probes that fail once each before answering (a probe timed out on a loaded machine). */
  providerTimeouts = 0;
  providerProbes = 0;
  /** URLs that cannot be resolved, with why. */
  readonly badStreams = new Map<string, string>();
  free: number | null = null;

  async providerHealthy(): Promise<void> {
    this.providerProbes++;
    if (this.providerTimeouts > 0) {
      this.providerTimeouts--;
      throw new Error('ffmpeg -version did not answer within 10 s');
    }
    if (this.providerProblem) throw new Error(this.providerProblem);
  }

  async resolveStream(url: string): Promise<void> {
    const problem = this.badStreams.get(url);
    if (problem) throw new Error(problem);
  }

  async freeBytes(): Promise<number | null> {
    return this.free;
  }
}

/** A timer the test fires: remembers what was asked; `trigger()` fires it as the real one would once its delay passed. */
export class ManualTimer implements Timer {
  armedDelayMs: number | undefined;
  private fire: (() => void) | undefined;

  arm(delayMs: number, fire: () => void): void {
    this.armedDelayMs = delayMs;
    this.fire = fire;
  }

  disarm(): void {
    this.armedDelayMs = undefined;
    this.fire = undefined;
  }

  trigger(): void {
    const fire = this.fire;
    this.disarm();
    fire?.();
  }
}

/** Alarms that go nowhere, for a scheduler run without the alarms module (the benchmark, isolated tests). */
export const silentAlarms: SchedulerAlarms = {
  raise: () => Promise.resolve(),
  resolve: () => Promise.resolve(),
  resolveAllExcept: () => Promise.resolve(),
};
