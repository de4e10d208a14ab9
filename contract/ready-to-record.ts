import type { Mosque, PrayerTimeRecord } from './mosques';
import type { Job } from './scheduler';

interface ReadinessInputs {
  mosques: readonly Mosque[];
  /** Ids of the mosques whose coordinates are known. */
  located: ReadonlySet<string>;
  /** The coming Friday prayer of each mosque that has one. */
  prayerTimes: ReadonlyMap<string, Pick<PrayerTimeRecord, 'friday_prayer'>>;
  jobs: readonly Pick<Job, 'kind' | 'status' | 'mosque_id' | 'prayer_time'>[];
}

const prayerKey = (mosqueId: string, prayer: string) => `${mosqueId} ${Date.parse(prayer)}`;

/**
 * Mosques that will really be recorded on their coming Friday: active, with a stream to record
 * (ID_token), coordinates and a prayer time, and that Friday's recording not cancelled by an operator.
 * The cancellations are looked up by key, so a fleet of 10,000 and its jobs take one pass each.
 */
export function readyToRecord({ mosques, located, prayerTimes, jobs }: ReadinessInputs): Mosque[] {
  const cancelled = new Set(
    jobs.flatMap((job) =>
      job.kind === 'recording' && job.status === 'cancelled' && job.mosque_id !== null && job.prayer_time !== null
        ? [prayerKey(job.mosque_id, job.prayer_time)]
        : [],
    ),
  );
  return mosques.filter((mosque) => {
    const time = prayerTimes.get(mosque.mosque_id);
    return (
      mosque.active &&
      (mosque.ID_token ?? '').trim() !== '' &&
      located.has(mosque.mosque_id) &&
      time !== undefined &&
      !cancelled.has(prayerKey(mosque.mosque_id, time.friday_prayer))
    );
  });
}
