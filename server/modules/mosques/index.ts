import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { EventBus } from '../../lib/events';
import type { ServerModule } from '../../lib/server-module';
import type { ActivityService } from '../activity';
import type { PrayerTimesService } from '../prayer-times';
import type { SchedulerService } from '../scheduler';
import { MosquesRepository } from './repository';
import { registerMosqueRoutes } from './routes';
import { MosquesService } from './service';
import { mosquesSummary } from './summary';

/** What other modules and the app use of the mosque list; the rest stays inside the module. */
export { MosquesService } from './service';

/** The mosque list, its routes and summary, and `mosque_changed` on the app's events. */
export function createMosquesModule(deps: {
  db: Db;
  clock: Clock;
  activity: ActivityService;
  events: EventBus;
  /** The prayer times (built after this module, from its list): reached when the summary is asked for. */
  prayerTimes: () => Pick<PrayerTimesService, 'upcoming'>;
  /** The scheduler (built after this module): cancelled jobs take mosques out of Ready to Record. */
  scheduler: () => Pick<SchedulerService, 'jobs'>;
}): ServerModule<MosquesService> {
  const mosques = new MosquesService(new MosquesRepository(deps.db.kysely), deps.clock, deps.activity, deps.events);
  return {
    service: mosques,
    register: (app) =>
      registerMosqueRoutes(app, {
        mosques,
        summary: () =>
          mosquesSummary({ mosques, prayerTimes: deps.prayerTimes(), jobs: () => deps.scheduler().jobs('recent') }),
      }),
  };
}
