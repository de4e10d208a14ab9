import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { ServerModule } from '../../lib/server-module';
import { ActivityRepository } from './repository';
import { registerActivityRoutes } from './routes';
import { ActivityService } from './service';

/** What other modules and the app use of the activity log; the rest stays inside the module. */
export { ActivityService, type ActivityActor, type ActivityInput } from './service';
export { recordFailedLogin, recordSelfAction, recordUserCreated, recordUserUpdated } from './user-activity';

/** The activity log and its page. */
export function createActivityModule(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
}): ServerModule<ActivityService> {
  const service = new ActivityService(new ActivityRepository(deps.db.kysely), deps.clock, deps.log);
  return { service, register: (app) => registerActivityRoutes(app, service) };
}
