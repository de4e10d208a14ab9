import type { MosquesSummary } from '../../../contract/mosque-list';
import { readyToRecord } from '../../../contract/ready-to-record';
import type { Job } from '../../../contract/scheduler';
import type { PrayerTimesService } from '../prayer-times';
import type { MosquesService } from './service';

export interface MosquesSummaryDeps {
  mosques: Pick<MosquesService, 'list'>;
  prayerTimes: Pick<PrayerTimesService, 'upcoming'>;
  /** The jobs whose cancellations take a mosque out of Ready to Record (the scheduler's recent jobs). */
  jobs: () => Promise<Job[]>;
}

/**
 * The Config page's four counts, from the shared fleet list and the prayer times already computed for it:
 * the console gets four numbers instead of the fleet, its coordinates, prayer times and jobs.
 */
export async function mosquesSummary({ mosques, prayerTimes, jobs }: MosquesSummaryDeps): Promise<MosquesSummary> {
  const [list, recent] = await Promise.all([mosques.list(), jobs()]);
  const times = new Map((await prayerTimes.upcoming({ mosques: list })).map((record) => [record.mosque_id, record]));
  const located = new Set(
    list.filter((mosque) => mosque.latitude !== null && mosque.longitude !== null).map((mosque) => mosque.mosque_id),
  );
  const ready = readyToRecord({ mosques: list, located, prayerTimes: times, jobs: recent }).length;
  return { total: list.length, located: located.size, timed: times.size, ready };
}
