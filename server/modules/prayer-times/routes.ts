import { configRoutes } from '../../../contract/routes/mosques';
import type { AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { MosquesService } from '../mosques';
import type { PrayerTimesService } from './service';

export function registerPrayerTimeRoutes(
  app: AppInstance,
  { prayerTimes, mosques }: { prayerTimes: PrayerTimesService; mosques: MosquesService },
): void {
  // With mosque_ids (a table's page), only those mosques are read and computed, not the fleet.
  handle(app, configRoutes.prayerTimes, async (request) => {
    const ids = request.query.mosque_ids;
    const chosen = ids === undefined ? undefined : ids.length === 0 ? [] : await mosques.listByIds(ids);
    return { success: true as const, data: { prayer_times: await prayerTimes.upcoming({ mosques: chosen }) } };
  });
}
