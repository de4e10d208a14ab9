import Fastify, { type FastifyServerOptions } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIVE_MAX_FRAME_BYTES } from '../contract/live';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db';
import { systemClock, type Clock } from './lib/clock';
import type { AppInstance } from './lib/fastify';
import { SecretKeys } from './lib/secret-key';
import { AuthService } from './modules/auth/auth-service';
import { registerAuthRoutes } from './modules/auth/routes';
import { SessionService } from './modules/auth/session-service';
import { SessionsRepository } from './modules/auth/sessions-repository';
import { SessionTokens } from './modules/auth/tokens';
import { LiveHub } from './modules/live/hub';
import { registerLiveRoutes } from './modules/live/routes';
import { UsersRepository } from './modules/users/repository';
import { registerUserRoutes } from './modules/users/routes';
import { UsersService } from './modules/users/service';
import { registerAccessControl } from './plugins/access';
import { registerConsole } from './plugins/console';
import { registerErrorHandling } from './plugins/errors';

export interface BuildOptions {
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

export type App = AppInstance & { ctx: AppContext };

/** Log lines never carry credentials, whatever a route or library puts in them. */
const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.access_token', '*.github_pat'];

/** The whole server as one Fastify instance, without listening: tests drive it with `inject`. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    forceCloseConnections: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config);
  app.addHook('onClose', () => db.close());

  const keys = SecretKeys.load(config.secretKey, config.dataDir);
  const sessions = new SessionService(
    new SessionsRepository(db.kysely),
    new SessionTokens(keys.derive('session-tokens'), clock),
    clock,
  );
  const users = new UsersService(new UsersRepository(db.kysely), sessions, clock);
  const auth = new AuthService(users, sessions, clock);
  const hub = new LiveHub(clock);
  const ctx: AppContext = { config, clock, db, log: app.log, keys, hub, sessions, users, auth };

  registerErrorHandling(app);
  registerAccessControl(app, sessions);
  await app.register(fastifyWebsocket, { options: { maxPayload: LIVE_MAX_FRAME_BYTES } });
  app.addHook('preClose', () => hub.closeAll(1001, 'Server shutting down'));

  registerAuthRoutes(app, { auth, users });
  registerUserRoutes(app, users);
  registerLiveRoutes(app, { hub, sessions, clock, allowedOrigins: config.allowedOrigins });
  await registerConsole(app, config.consoleDir);

  return Object.assign(app, { ctx });
}
