import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db';
import type { Clock } from './lib/clock';
import type { SecretKeys } from './lib/secret-key';
import type { AuthService } from './modules/auth/auth-service';
import type { SessionService } from './modules/auth/session-service';
import type { LiveHub } from './modules/live/hub';
import type { UsersService } from './modules/users/service';

/** Everything a module may use, built once per app. Modules reach each other only through services here. */
export interface AppContext {
  config: Config;
  clock: Clock;
  db: Db;
  log: FastifyBaseLogger;
  keys: SecretKeys;
  hub: LiveHub;
  sessions: SessionService;
  users: UsersService;
  auth: AuthService;
}
