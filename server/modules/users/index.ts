import path from 'node:path';
import { INITIAL_PASSWORD_FILE } from '../../../contract/auth';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { EventBus } from '../../lib/events';
import type { ServerModule } from '../../lib/server-module';
import type { ActivityService } from '../activity';
import { UsersRepository } from './repository';
import { registerUserRoutes } from './routes';
import { UsersService, type UserSessions } from './service';

/** What other modules and the app use of the accounts; the rest stays inside the module. */
export { UsersService } from './service';
export { toUser, type UserRow } from './user';
export { usernameKey } from './username-key';

/** The accounts, their routes, and `user_changed` on the app's events. */
export function createUsersModule(deps: {
  config: Pick<Config, 'dataDir'>;
  db: Db;
  clock: Clock;
  sessions: UserSessions;
  activity: ActivityService;
  events: EventBus;
}): ServerModule<UsersService> {
  const service = new UsersService(
    new UsersRepository(deps.db.kysely),
    deps.sessions,
    deps.clock,
    deps.activity,
    deps.events,
    path.join(deps.config.dataDir, INITIAL_PASSWORD_FILE),
  );
  return { service, register: (app) => registerUserRoutes(app, service) };
}
