import type { Mosque, PrayerTimeRecord } from '../../contract/mosques';
import type { Job } from '../../contract/scheduler';

interface ReadinessInputs {
  mosques: readonly Mosque[];
  /** Ids of the mosques whose coordinates are known. */
  located: ReadonlySet<string>;
  /** The coming Friday prayer of each mosque that has one. */
  prayerTimes: ReadonlyMap<string, Pick<PrayerTimeRecord, 'friday_prayer'>>;
  jobs: readonly Pick<Job, 'kind' | 'status' | 'mosque_id' | 'prayer_time'>[];
}

/** The recording of that mosque for that Friday prayer was cancelled by an operator. */
function fridayCancelled(jobs: ReadinessInputs['jobs'], mosqueId: string, fridayPrayer: string): boolean {
  const prayer = Date.parse(fridayPrayer);
  return jobs.some(
    (job) =>
      job.kind === 'recording' &&
      job.status === 'cancelled' &&
      job.mosque_id === mosqueId &&
      job.prayer_time !== null &&
      Date.parse(job.prayer_time) === prayer,
  );
}

/**
 * Mosques that will really be recorded on their coming Friday: active, with a stream to record
 * (ID_token), coordinates and a prayer time, and that Friday's recording not cancelled.
 */
export function readyToRecord({ mosques, located, prayerTimes, jobs }: ReadinessInputs): Mosque[] {
  return mosques.filter((mosque) => {
    const time = prayerTimes.get(mosque.mosque_id);
    return (
      mosque.active &&
      (mosque.ID_token ?? '').trim() !== '' &&
      located.has(mosque.mosque_id) &&
      time !== undefined &&
      !fridayCancelled(jobs, mosque.mosque_id, time.friday_prayer)
    );
  });
}
