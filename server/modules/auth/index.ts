import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { EventBus } from '../../lib/events';
import type { SecretKeys } from '../../lib/secret-key';
import type { ServerModule } from '../../lib/server-module';
import type { ActivityService } from '../activity';
import type { UsersService } from '../users';
import { AuthService } from './auth-service';
import { registerAuthRoutes } from './routes';
import { SessionService } from './session-service';
import { SessionsRepository } from './sessions-repository';
import { SessionTokens } from './tokens';

/** What other modules and the app use of sign-in and sessions; the rest stays inside the module. */
export { AuthService } from './auth-service';
export { SessionService } from './session-service';

/** Sessions, made before the accounts and sign-in that both use them (and the access rule of every route). */
export function createSessions(deps: { db: Db; keys: SecretKeys; clock: Clock; events: EventBus }): SessionService {
  const tokens = new SessionTokens(deps.keys.derive('session-tokens'), deps.clock);
  return new SessionService(new SessionsRepository(deps.db.kysely), tokens, deps.clock, deps.events);
}

/** Sign-in, sign-out and the first-run page. */
export function createAuthModule(deps: {
  config: Pick<Config, 'dataDir'>;
  db: Db;
  clock: Clock;
  sessions: SessionService;
  users: UsersService;
  activity: ActivityService;
}): ServerModule<AuthService> {
  const { users } = deps;
  const service = new AuthService(users, deps.sessions, deps.clock, deps.activity, deps.db);
  return {
    service,
    register: (app) => registerAuthRoutes(app, { auth: service, users, dataDir: deps.config.dataDir }),
  };
}
