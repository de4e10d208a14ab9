import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { ServerModule } from '../../lib/server-module';
import type { MosquesService } from '../mosques';
import { registerPrayerTimeRoutes } from './routes';
import { PrayerTimesService } from './service';

/** What other modules and the app use of the prayer times; the rest stays inside the module. */
export { PrayerTimesService } from './service';

/** Friday prayer times of the mosques, and their route. */
export function createPrayerTimesModule(deps: {
  mosques: MosquesService;
  clock: Clock;
  log: FastifyBaseLogger;
}): ServerModule<PrayerTimesService> {
  const { mosques } = deps;
  const prayerTimes = new PrayerTimesService(mosques, deps.clock, deps.log);
  return { service: prayerTimes, register: (app) => registerPrayerTimeRoutes(app, { prayerTimes, mosques }) };
}
