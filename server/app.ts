import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { appContext, type AppContext } from './context';
import { openDatabase, type Db } from './db';
import { systemClock, type Clock } from './lib/clock';
import { EventBus } from './lib/events';
import type { AppInstance } from './lib/fastify';
import type { HostResolver } from './lib/internal-addresses';
import { checkKeyFingerprint } from './lib/key-fingerprint';
import { lazyRequestLogger } from './lib/request-logger';
import { AccessLogController } from './lib/access-log';
import { readableLogStream } from './lib/readable-log';
import { SecretKeys } from './lib/secret-key';
import type { ServerModule } from './lib/server-module';
import { registerAccessControl } from './plugins/access';
import { registerCompression } from './plugins/compression';
import { registerConsole } from './plugins/console';
import { registerErrorHandling } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors';
import { registerSecurityHeaders } from './plugins/security-headers';
import type { CaptureProvider } from './capture/provider';
import { createRecordingStore } from './storage';
import { createActivityModule } from './modules/activity';
import { createAlarmsModule, type AlarmDeliveryOptions } from './modules/alarms';
import { createAuthModule, createSessions, type SessionService } from './modules/auth';
import { createGithubModule } from './modules/github';
import { createImagesModule } from './modules/images';
import { createInstancesModule } from './modules/instances';
import { createLiveModule } from './modules/live';
import {
  createMonitoringModule,
  registerRequestMetrics,
  unmatchedRequestRecorder,
  type MonitoringService,
} from './modules/monitoring';
import { createMosquesModule } from './modules/mosques';
import { createPrayerTimesModule } from './modules/prayer-times';
import { createRecordingConfigsModule } from './modules/recording-configs';
import { createRecordingsModule } from './modules/recordings';
import { createSchedulerModule, newClaimantId, type SchedulerOptions } from './modules/scheduler';
import { createServersModule, fleetGaugesReporter } from './modules/servers';
import { createUsersModule } from './modules/users';

export interface BuildOptions {
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** How often health is re-checked and changes pushed to the live feed (default 30 s; 0 = never, tests call refresh()). */
  healthCheckIntervalMs?: number;
  /** How long one component check may take before it counts as unhealthy (default 5 s). */
  healthCheckTimeoutMs?: number;
  /** Scheduler ports to swap (tests, bench): planner, launcher, timer. */
  scheduler?: SchedulerOptions;
  /** A capture driver to use instead of the one CAPTURE_PROVIDER names (tests, bench). */
  captureDriver?: CaptureProvider;
  /** How the stream-host guard resolves names (default the system's DNS; a simulated fleet's streams live in its own). */
  resolveStreamHost?: HostResolver;
  /** How often the sessions of open live sockets are re-checked (default 30 s). */
  liveSessionCheckMs?: number;
  /** Told of every route as it is registered (the authorization matrix test enumerates them). */
  onRoute?: (route: RouteOptions) => void;
  /** Retry timing of alarm webhook and e-mail deliveries (tests shorten it). */
  alarmDelivery?: AlarmDeliveryOptions;
}

export type App = AppInstance & { ctx: AppContext };

/** Log lines never carry credentials, whatever a route or library puts in them. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.access_token',
  '*.github_pat',
];

/** pino's options: redacted always; readable lines in a terminal (or with LOG_FORMAT=readable), JSON otherwise. */
function serverLogger(config: Config): FastifyServerOptions['logger'] {
  const readable = (config.logFormat ?? (process.stdout.isTTY ? 'readable' : 'json')) === 'readable';
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(readable ? { stream: readableLogStream(process.stdout) } : {}),
  };
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/**
 * Every schema is zod. Given as the factories (what setValidatorCompiler and setSerializerCompiler set
 * inside Fastify too), they spare every start Fastify's default Ajv and fast-json-stringify compilers,
 * which it would otherwise load only to replace (about 10 ms). Fastify types the factories for Ajv.
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as CompilersFactory;

/** The whole server as one Fastify instance, without listening: tests drive it with `inject`. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = createFastify(config, options);
  const clock = options.clock ?? systemClock;
  const { db, keys } = await openStorage(app, config, clock);
  // This server's one id, made first: the scheduler claims under it and the servers table names it.
  const serverId = newClaimantId();
  const base = { ...options, config, clock, db, keys, log: app.log, events: new EventBus(app.log), serverId };
  const sessions = createSessions(base);
  const activity = createActivityModule(base);
  const live = createLiveModule({ ...base, sessions });
  const reportsFleet = fleetGaugesReporter(base);
  const monitoring = createMonitoringModule({ ...base, hub: live.service, activity: activity.service, reportsFleet });
  const core = { ...base, sessions, activity: activity.service, hub: live.service, monitoring: monitoring.service };

  // Each module is built after those it needs. One that needs a module built later (a cycle) is given a
  // function that reaches it, called only once the app runs: mosques' summary needs the prayer times and
  // the scheduler's jobs; the fleet hands launches for later to the scheduler and reaches other servers.
  const users = createUsersModule(core);
  const auth = createAuthModule({ ...core, users: users.service });
  const github = createGithubModule(core);
  const later = { prayerTimes: () => prayerTimes.service, scheduler: () => scheduler.service };
  const mosques = createMosquesModule({ ...core, ...later });
  const prayerTimes = createPrayerTimesModule({ ...core, mosques: mosques.service });
  // The one store of recordings: the library reads it, the recorders deliver to it (when it is a bucket).
  const store = createRecordingStore(config);
  const planning = { ...core, store, mosques: mosques.service, prayerTimes: prayerTimes.service };
  const recordingConfigs = createRecordingConfigsModule(planning);
  const alarms = createAlarmsModule({ ...planning, delivery: options.alarmDelivery });
  const fleet = createInstancesModule({
    ...planning,
    alarms: alarms.service,
    listeningPort: () => listeningPort(app),
    otherScopes: () => servers.service.otherScopes,
    futureLaunches: (launch) => scheduler.service.scheduleOneOff(launch),
  });
  const running = { ...planning, ...fleet.service, alarms: alarms.service, recordingConfigs: recordingConfigs.service };
  const images = createImagesModule(running);
  const servers = createServersModule(running);
  const library = createRecordingsModule({ ...running, ...servers.service });
  const claimantIsDead = (claimant: string) => servers.service.registry.isDead(claimant);
  const scheduler = createSchedulerModule({ ...running, claimantIsDead });

  await registerGuards(app, sessions, monitoring.service);
  // Started when the app is ready and closed before it closes, in this order; their routes in it too.
  const lifecycle = { library, servers, live, monitoring, alarms, scheduler, fleet };
  const modules = { ...lifecycle, activity, users, auth, github, mosques, prayerTimes, recordingConfigs, images };
  for (const module of Object.values<ServerModule<unknown>>(modules)) {
    if (module.start) app.addHook('onReady', module.start);
    if (module.close) app.addHook('preClose', module.close);
    await module.register(app);
  }
  await registerConsole(app, config.consoleDir, unmatchedRequestRecorder(monitoring.service));
  const ctx = appContext(base, sessions, modules);
  return Object.assign(app, { ctx });
}

/** Fastify with the server's logger, limits, error shapes and zod schemas; told of each route when asked. */
function createFastify(config: Config, options: BuildOptions): AppInstance {
  const app = Fastify({
    logger: options.logger ?? serverLogger(config),
    // One line per request, and none at info for static files.
    logController: new AccessLogController(),
    bodyLimit: 1024 * 1024,
    // request.ip is the client's address: the connection's, or X-Forwarded-For's when it comes from a listed proxy.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    forceCloseConnections: true,
    // A request (headers and body) must arrive within REQUEST_TIMEOUT_SECONDS, else 408 in the error shape
    // (framework-errors.ts): a body that never finishes held its socket forever. Node times bodies only
    // when the limit is given to the server's constructor (Fastify sets it later), and checks every
    // connectionsCheckingInterval, kept well under the limit. A socket idle for 5 minutes is closed.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs / 4),
    },
    connectionTimeout: 5 * 60_000,
    frameworkErrors,
    clientErrorHandler,
    schemaController: { compilersFactory: zodCompilers },
    childLoggerFactory: lazyRequestLogger,
  }).withTypeProvider<ZodTypeProvider>();
  const { onRoute } = options;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route as unknown as RouteOptions));
  return app;
}

/** The database (closed with the app) and the secret keys, refused when they are not the keys it was used with. */
async function openStorage(app: AppInstance, config: Config, clock: Clock): Promise<{ db: Db; keys: SecretKeys }> {
  const db = await openDatabase(config);
  app.addHook('onClose', () => db.close());
  const keys = SecretKeys.load(config.secretKey, config.dataDir);
  try {
    await checkKeyFingerprint(db.kysely, keys, clock.now().toISOString());
  } catch (error) {
    await db.close();
    throw error;
  }
  return { db, keys };
}

/**
 * Before any route: these attach themselves to each route as it is registered (access rule, metrics,
 * compression), so a route registered earlier would go unguarded and unmeasured.
 */
async function registerGuards(
  app: AppInstance,
  sessions: SessionService,
  monitoring: MonitoringService,
): Promise<void> {
  registerErrorHandling(app);
  registerSecurityHeaders(app);
  registerInputGuard(app);
  registerAccessControl(app, sessions);
  registerRequestMetrics(app, monitoring);
  await registerCompression(app);
}

/** The port this server listens on, once it does. */
function listeningPort(app: AppInstance): number | undefined {
  const address = app.server.address();
  return address && typeof address === 'object' ? address.port : undefined;
}
