import { prayerTimesResponseSchema } from '../../../contract/config';
import type { AppInstance } from '../../lib/fastify';
import type { PrayerTimesService } from './service';

export function registerPrayerTimeRoutes(app: AppInstance, prayerTimes: PrayerTimesService): void {
  app.get(
    '/api/config/prayer-times',
    { config: { access: 'session' }, schema: { response: { 200: prayerTimesResponseSchema } } },
    async () => ({ success: true as const, data: { prayer_times: await prayerTimes.upcoming() } }),
  );
}
