import type { Mosque, PrayerTimeRecord } from '../../../contract/config';
import type { AppContext } from '../../context';
import { DEFAULT_DURATION_SECONDS } from './policy';
import type { FridayPlan, FridayPlanner, LaunchRequest, PlanSkip, RecordingLauncher } from './ports';
import { localDate } from './time';

/*
 * The scheduler's ports on the real services, reached through the app context (never a driver or
 * another module's repository). `services()` is read at call time: the context is built after us.
 */

type PlannerServices = Pick<AppContext, 'mosques' | 'prayerTimes' | 'recordingConfigs'>;

const WEEK_MS = 7 * 86_400_000;

/** Friday prayers from the prayer-times service; stream URLs as the config generator derives them. */
export class PrayerTimesPlanner implements FridayPlanner {
  constructor(private readonly services: () => PlannerServices) {}

  async planFriday(now: Date, filter: string[] | null): Promise<{ plans: FridayPlan[]; skipped: PlanSkip[] }> {
    const { mosques, recordingConfigs } = this.services();
    const list = filter ? await mosques.listByIds(filter) : await mosques.list();
    const plans: FridayPlan[] = [];
    const skipped: PlanSkip[] = [];
    for (const mosque of list) {
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

  async prayerTimes(now: Date): Promise<PrayerTimeRecord[]> {
    const { mosques, prayerTimes } = this.services();
    const active = (await mosques.list()).filter((m) => m.active);
    return prayerTimes.upcoming({ mosques: active, now });
  }

  /**
   * The Friday to record: the service's next prayer, unless this Friday's prayer has begun but its
   * recording window (recording start + 7200 s) is still open, in which case this Friday's.
   */
  private coming(mosque: Mosque, now: Date): PrayerTimeRecord | null {
    const { prayerTimes } = this.services();
    const next = prayerTimes.nextFridayPrayer(mosque, now);
    if (!next) return null;
    // Only just after this Friday's prayer can its window still be open (an hour of slack for DST).
    const windowMs = DEFAULT_DURATION_SECONDS * 1000;
    if (Date.parse(next.friday_prayer) - WEEK_MS + windowMs + 3_600_000 <= now.getTime()) return next;
    const previousDate = localDate(new Date(Date.parse(next.friday_prayer) - WEEK_MS), next.timezone);
    const previous = prayerTimes.fridayPrayerOn(mosque, previousDate);
    if (previous && Date.parse(previous.recording_start) + DEFAULT_DURATION_SECONDS * 1000 > now.getTime()) return previous;
    return next;
  }
}

/**
 * Launches through `ctx.capture`, the fleet-wrapped CaptureProvider (never a driver): the fleet
 * records the instance with its job id, makes the launch idempotent per job, and announces it.
 */
export class CaptureLauncher implements RecordingLauncher {
  readonly announcesOutcomes = true;

  constructor(private readonly services: () => Pick<AppContext, 'capture'>) {}

  async launch(request: LaunchRequest): Promise<{ instanceId: string }> {
    const launched = await this.services().capture.launch(
      { url: request.url, duration: request.duration, width: request.width, height: request.height, mosque_id: request.mosqueId || null, method: 'api' },
      { jobId: request.jobId, idempotencyKey: request.idempotencyKey, windowStart: request.windowStart, windowEnd: request.windowEnd },
    );
    return { instanceId: launched.launchId };
  }
}
