import { configRoutes } from '../../../contract/routes/mosques';
import type { AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { PrayerTimesService } from './service';

export function registerPrayerTimeRoutes(app: AppInstance, prayerTimes: PrayerTimesService): void {
  handle(app, configRoutes.prayerTimes, async () => ({
    success: true as const,
    data: { prayer_times: await prayerTimes.upcoming() },
  }));
}
