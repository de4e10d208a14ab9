import fs from 'node:fs/promises';
import { resolveStreamUrl } from '../../../recorder/stream-url';
import type { Mosque, PrayerTimeRecord } from '../../../contract/mosques';
import type { CaptureProvider } from '../../capture/provider';
import type { Config } from '../../config';
import { localDateText } from '../../geo/timezone';
import { yieldToEventLoop } from '../../lib/yield-to-event-loop';
import type { RecordingConfigService } from '../recording-configs';
import type { InstancesService } from '../instances';
import type { MosquesService } from '../mosques';
import type { PrayerTimesService } from '../prayer-times';
import type { RecordingsService } from '../recordings';
import { DEFAULT_DURATION_SECONDS } from './policy';
import type {
  FridayPlan,
  FridayPlanner,
  LaunchRequest,
  PlanSkip,
  PreflightChecks,
  RecordingFacts,
  RecordingGap,
  RecordingLauncher,
} from './ports';

/*
 * The scheduler's ports on the real services (never a driver or another module's repository).
 */

interface PlannerServices {
  mosques: MosquesService;
  prayerTimes: PrayerTimesService;
  recordingConfigs: RecordingConfigService;
}

const WEEK_MS = 7 * 86_400_000;
/** Mosques planned without a break: about 10 ms of prayer-time arithmetic on this machine. */
const PLAN_SLICE = 250;

/** Friday prayers from the prayer-times service; stream URLs as the config generator derives them. */
export class PrayerTimesPlanner implements FridayPlanner {
  constructor(private readonly services: PlannerServices) {}

  async planFriday(now: Date, filter: string[] | null): Promise<{ plans: FridayPlan[]; skipped: PlanSkip[] }> {
    const { mosques, recordingConfigs } = this.services;
    const list = filter ? await mosques.listByIds(filter) : await mosques.list();
    const plans: FridayPlan[] = [];
    const skipped: PlanSkip[] = [];
    for (const [index, mosque] of list.entries()) {
      // Planning a whole fleet is CPU work: requests waiting meanwhile go between slices of it.
      if (index > 0 && index % PLAN_SLICE === 0) await yieldToEventLoop();
      if (!mosque.active) continue; // inactive mosques are simply not planned
      const skip = (reason: string) => skipped.push({ mosqueId: mosque.mosque_id, mosqueName: mosque.name, reason });
      if (!mosque.ID_token?.trim()) {
        skip('Mosque has no stream identifier (ID_token)');
        continue;
      }
      let record: PrayerTimeRecord | null;
      try {
        record = this.coming(mosque, now);
      } catch (error) {
        skip(`Prayer time could not be computed: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      if (!record) {
        skip("No coordinates or fixed Jumu'ah time");
        continue;
      }
      plans.push({
        mosqueId: mosque.mosque_id,
        mosqueName: mosque.name,
        url: recordingConfigs.streamUrl(mosque.ID_token),
        prayerAt: new Date(record.friday_prayer),
        recordingStart: new Date(record.recording_start),
        timezone: record.timezone,
      });
    }
    return { plans, skipped };
  }

  async activeMosques(): Promise<{ id: string; name: string }[]> {
    return (await this.services.mosques.list()).filter((m) => m.active).map((m) => ({ id: m.mosque_id, name: m.name }));
  }

  async prayerTimes(now: Date): Promise<PrayerTimeRecord[]> {
    const { mosques, prayerTimes } = this.services;
    const active = (await mosques.list()).filter((m) => m.active);
    return prayerTimes.upcoming({ mosques: active, now });
  }

  /**
   * The Friday to record: the service's next prayer, unless this Friday's prayer has begun but its
   * recording window (recording start + 7200 s) is still open, in which case this Friday's.
   */
  private coming(mosque: Mosque, now: Date): PrayerTimeRecord | null {
    const { prayerTimes } = this.services;
    const next = prayerTimes.nextFridayPrayer(mosque, now);
    if (!next) return null;
    // Only just after this Friday's prayer can its window still be open (an hour of slack for DST).
    const windowMs = DEFAULT_DURATION_SECONDS * 1000;
    if (Date.parse(next.friday_prayer) - WEEK_MS + windowMs + 3_600_000 <= now.getTime()) return next;
    const previousDate = localDateText(new Date(Date.parse(next.friday_prayer) - WEEK_MS), next.timezone);
    const previous = prayerTimes.fridayPrayerOn(mosque, previousDate);
    if (previous && Date.parse(previous.recording_start) + DEFAULT_DURATION_SECONDS * 1000 > now.getTime())
      return previous;
    return next;
  }
}

/** The columns a recording row has once the recorder measures coverage (older rows lack them). */
interface MeasuredRecording {
  id: string;
  status: string;
  duration_seconds: number | null;
  reason: string | null;
  covered_seconds?: number | null;
  gaps?: string | null;
}

function parseGaps(text: string | null | undefined): RecordingGap[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed)
      ? (parsed as RecordingGap[]).filter((g) => typeof g?.start === 'string' && typeof g?.end === 'string')
      : [];
  } catch {
    return [];
  }
}

/** A recording row as the scheduler judges it: coverage measured from the media (seconds of media for older rows). */
export function factsOf(row: MeasuredRecording): RecordingFacts {
  return {
    recordingId: row.id,
    inProgress: row.status === 'recording',
    coveredSeconds: Number(row.covered_seconds ?? row.duration_seconds ?? 0),
    gaps: parseGaps(row.gaps),
    reason: row.reason,
  };
}

/**
 * Launches through `ctx.capture`, the fleet-wrapped CaptureProvider (never a driver): the fleet
 * records the instance with its job id, makes the launch idempotent per job, and announces it.
 * A launch counts only once the instance has its provider id and its recording row: a launch that
 * a crash cut short is completed by the retry (same idempotency key), not taken as done.
 */
export class CaptureLauncher implements RecordingLauncher {
  readonly announcesOutcomes = true;

  constructor(
    private readonly services: { capture: CaptureProvider; recordings: RecordingsService; instances: InstancesService },
  ) {}

  async launch(request: LaunchRequest): Promise<{ instanceId: string; recordingId: string | null }> {
    const { capture, recordings, instances } = this.services;
    const launched = await capture.launch(
      {
        url: request.url,
        duration: request.duration,
        width: request.width,
        height: request.height,
        mosque_id: request.mosqueId || null,
        method: 'api',
      },
      {
        jobId: request.jobId,
        idempotencyKey: request.idempotencyKey,
        windowStart: request.windowStart,
        windowEnd: request.windowEnd,
      },
    );
    const row = await instances.resolve(launched.launchId);
    if (!row.provider_instance_id)
      throw new Error(`Instance ${row.id} has no recorder yet (its launch did not complete)`);
    const recording = await recordings.findRowByInstance(row.id);
    if (!recording) throw new Error(`Instance ${row.id} has no recording (its launch did not complete)`);
    return { instanceId: row.id, recordingId: recording.id };
  }

  async launchedFor(jobId: string): Promise<{ instanceId: string; recordingId: string | null } | null> {
    const row = await this.services.instances.ofJob(jobId);
    if (!row?.provider_instance_id) return null;
    return { instanceId: row.id, recordingId: (await this.services.recordings.findRowByInstance(row.id))?.id ?? null };
  }

  async recordingOf(instanceId: string): Promise<RecordingFacts | null> {
    const row = await this.services.recordings.findRowByInstance(instanceId);
    if (!row) return null;
    const facts = factsOf(row);
    return facts.inProgress && !(await this.services.instances.attended(instanceId))
      ? { ...facts, unattended: true }
      : facts;
  }
}

/** Pre-flight on the real services: the fleet's provider health, the recorder's stream resolver (yt-dlp for a page), DATA_DIR's free space. */
export class CapturePreflightChecks implements PreflightChecks {
  constructor(
    private readonly services: { capture: CaptureProvider; config: Pick<Config, 'ytDlpPath' | 'dataDir'> },
    private readonly resolver?: (url: string) => Promise<void>,
  ) {}

  async providerHealthy(): Promise<void> {
    const health = await this.services.capture.health();
    if (health.status !== 'operational') throw new Error(`${health.provider} is ${health.status}: ${health.detail}`);
  }

  async resolveStream(url: string): Promise<void> {
    if (this.resolver) return this.resolver(url);
    const resolved = await resolveStreamUrl(url, { ytDlpPath: this.services.config.ytDlpPath, timeoutMs: 25_000 });
    if (!resolved.ok) throw new Error(resolved.error);
  }

  async freeBytes(): Promise<number | null> {
    const { capture, config } = this.services;
    if (capture.kind !== 'local') return null;
    const stats = await fs.statfs(config.dataDir);
    return Number(stats.bavail) * Number(stats.bsize);
  }
}
