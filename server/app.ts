import path from 'node:path';
import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase, sqlitePath } from './db';
import { systemClock, type Clock } from './lib/clock';
import type { AppInstance } from './lib/fastify';
import type { HostResolver } from './lib/internal-addresses';
import { checkKeyFingerprint } from './lib/key-fingerprint';
import { lazyRequestLogger } from './lib/request-logger';
import { AccessLogController } from './lib/access-log';
import { readableLogStream } from './lib/readable-log';
import { SecretKeys } from './lib/secret-key';
import { AuthService, registerAuthRoutes, SessionService, SessionsRepository, SessionTokens } from './modules/auth';
import {
  LiveEventLog,
  LiveFeed,
  LiveHub,
  registerLiveRoutes,
  LiveSocketSlots,
  LIVE_SOCKET_HARD_LIMIT,
} from './modules/live';
import { UsersRepository, registerUserRoutes, UsersService } from './modules/users';
import { INITIAL_PASSWORD_FILE } from '../contract/auth';
import { registerAccessControl } from './plugins/access';
import { registerCompression } from './plugins/compression';
import { registerConsole } from './plugins/console';
import { registerErrorHandling } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors';
import { registerSecurityHeaders } from './plugins/security-headers';
import { MONITORING_POLL_MS } from '../contract/monitoring';
import { SecretBox } from './lib/crypto';
import { ActivityRepository, registerActivityRoutes, ActivityService } from './modules/activity';
import { OctokitGithubApi, registerGithubRoutes, GithubService, SettingsRepository } from './modules/github';
import {
  registerMonitoringRoutes,
  registerRequestMetrics,
  unmatchedRequestRecorder,
  MonitoringService,
  diskSpaceCheck,
} from './modules/monitoring';
import { createScheduler, registerSchedulerRoutes, type SchedulerOptions } from './modules/scheduler';
import { MapsLinkResolver } from './geo/maps-link';
import { registerConfigRoutes, RecordingConfigService } from './modules/recording-configs';
import { MosquesRepository, registerMosqueRoutes, mosquesSummary, MosquesService } from './modules/mosques';
import { registerPrayerTimeRoutes, PrayerTimesService } from './modules/prayer-times';
import type { CaptureProvider } from './capture/provider';
import { createCaptureModule, registerCaptureModule } from './modules/instances';
import { createImagesService, registerImageRoutes } from './modules/images';
import { createAlarmsModule, type AlarmDeliveryOptions, registerAlarmRoutes } from './modules/alarms';
import { registerRecordingsLibrary } from './modules/recordings';
import { createRecordingStore } from './storage';
import { registerServers } from './modules/servers';

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

const LIVE_SESSION_CHECK_MS = 30_000;

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

  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config);
  app.addHook('onClose', () => db.close());

  const keys = SecretKeys.load(config.secretKey, config.dataDir);
  try {
    await checkKeyFingerprint(db.kysely, keys, clock.now().toISOString());
  } catch (error) {
    await db.close();
    throw error;
  }
  const sessions = new SessionService(
    new SessionsRepository(db.kysely),
    new SessionTokens(keys.derive('session-tokens'), clock),
    clock,
  );
  const activity = new ActivityService(new ActivityRepository(db.kysely), clock, app.log);
  const users = new UsersService(
    new UsersRepository(db.kysely),
    sessions,
    clock,
    activity,
    path.join(config.dataDir, INITIAL_PASSWORD_FILE),
  );
  const auth = new AuthService(users, sessions, clock, activity, db);
  const hub = new LiveHub(clock);
  const mosques = new MosquesService(new MosquesRepository(db.kysely), clock, activity);
  const prayerTimes = new PrayerTimesService(mosques, clock, app.log);
  const mapsLinks = new MapsLinkResolver({
    resolveOrigin: config.mapsLinkResolveOrigin,
    timeoutMs: config.mapsLinkTimeoutMs,
  });
  const recordingConfigs = new RecordingConfigService(mosques, prayerTimes, mapsLinks, config, activity, app.log);
  const monitoring = new MonitoringService({
    db: db.kysely,
    clock,
    hub,
    log: app.log,
    checkTimeoutMs: options.healthCheckTimeoutMs,
  });
  const github = new GithubService({
    settings: new SettingsRepository(db.kysely),
    api: new OctokitGithubApi(config.githubApiUrl, clock),
    box: new SecretBox(keys.derive('settings-encryption')),
    clock,
    activity,
    log: app.log,
  });
  const alarmsModule = createAlarmsModule({
    config,
    db: db.kysely,
    dialect: db.dialect,
    clock,
    activity,
    hub,
    monitoring,
    log: app.log,
    delivery: options.alarmDelivery,
    mosqueName: async (id) => (await mosques.find(id))?.name ?? null,
  });
  const { alarms } = alarmsModule;
  // Before any route: these attach themselves to each route as it is registered (access rule, metrics,
  // compression), so a route registered earlier would go unguarded and unmeasured.
  registerErrorHandling(app);
  registerSecurityHeaders(app);
  registerInputGuard(app);
  registerAccessControl(app, sessions);
  registerRequestMetrics(app, monitoring);
  await registerCompression(app);
  // The one store of recordings: the library reads it, the recorders deliver to it (when it is a bucket).
  const store = createRecordingStore({
    recordingsStore: config.recordingsStore,
    dataDir: config.dataDir,
    awsRegion: config.awsRegion,
    s3Endpoint: config.s3Endpoint,
  });
  const recordingsLibrary = registerRecordingsLibrary(app, {
    config,
    db,
    clock,
    keys,
    activity,
    log: app.log,
    store,
    sessionLive: (id) => sessions.isSessionLive(id),
  });
  const capture = createCaptureModule({
    config,
    clock,
    db,
    hub,
    log: app.log,
    driver: options.captureDriver,
    store,
    resolveStreamHost: options.resolveStreamHost,
    alarms,
    mosqueName: async (id) => (await mosques.find(id))?.name ?? null,
    listeningPort: () => {
      const address = app.server.address();
      return address && typeof address === 'object' ? address.port : undefined;
    },
  });
  const images = createImagesService({
    db,
    driver: capture.driver,
    instances: capture.instances,
    clock,
    log: app.log,
    activity,
  });
  const scheduler = createScheduler(
    {
      db,
      clock,
      config,
      publish: (message) => hub.publish(message),
      log: app.log,
      mosques,
      prayerTimes,
      recordingConfigs,
      capture: capture.capture,
      instances: capture.instances,
      recordings: capture.recordings,
      alarms,
      activity,
      monitoring,
    },
    options.scheduler,
  );
  // Registered under the scheduler's claimant id: a claim or lease held by a server that died is then known dead from the servers table.
  const servers = registerServers(app, {
    config,
    db,
    clock,
    keys,
    log: app.log,
    id: scheduler.runner.claimant,
    instances: capture.instances,
    fleetOfFolder: capture.fleetOfFolder,
    library: recordingsLibrary,
    store,
    alarms,
    monitoring,
  }).registry;
  scheduler.judgeClaimantsBy((claimant) => servers.isDead(claimant));
  // Taken over, this server's launch claims were handed to others: it claims nothing more, at once.
  servers.onLeaseLost(() => void scheduler.runner.close());
  // A launch whose start_at is further ahead than the lead time is the scheduler's to launch.
  capture.instances.scheduleFutureLaunchesWith((config) => scheduler.scheduleOneOff(config));
  monitoring.identify(servers.id, async () => {
    // The longest-running live server exports the fleet's gauges; alone (SQLite) or not registered (not listening), this one.
    const [reporter] = (await servers.live()).sort(
      (a, b) => a.started_at.localeCompare(b.started_at) || a.id.localeCompare(b.id),
    );
    return reporter === undefined || reporter.id === servers.id;
  });
  const liveFeed = new LiveFeed({
    log: new LiveEventLog(db.kysely, db.dialect),
    hub,
    clock,
    dialect: db.dialect,
    databaseUrl: config.databaseUrl,
    serverId: servers.id,
    logger: app.log,
  });
  hub.useSink(liveFeed);
  mosques.onChange((change) =>
    hub.publish({ type: 'mosque_update', data: { change: change.type, mosque_id: change.mosque_id } }),
  );
  users.onChange((change) =>
    hub.publish({ type: 'user_update', data: { change: change.type, user_id: change.user_id } }),
  );
  app.addHook('onReady', () => liveFeed.start());
  app.addHook('preClose', async () => {
    await hub.flushed();
    await liveFeed.close();
  });
  const ctx: AppContext = {
    config,
    clock,
    db,
    log: app.log,
    keys,
    hub,
    sessions,
    users,
    auth,
    activity,
    monitoring,
    github,
    scheduler,
    mosques,
    prayerTimes,
    recordingConfigs,
    capture: capture.capture,
    instances: capture.instances,
    recordings: capture.recordings,
    images,
    alarms,
    recordingsLibrary,
    servers,
  };

  monitoring.registerHealthCheck(
    'recordings_disk',
    diskSpaceCheck('recordings', path.join(config.dataDir, 'recordings')),
  );
  if (db.dialect === 'sqlite')
    monitoring.registerHealthCheck('database_disk', diskSpaceCheck('database', path.dirname(sqlitePath(config))));
  monitoring.registerHealthCheck('activity_log', activity.healthCheck);
  app.addHook('onReady', async () => monitoring.start(options.healthCheckIntervalMs ?? MONITORING_POLL_MS));
  app.addHook('preClose', () => monitoring.stop());
  await app.register(fastifyWebsocket, { options: { maxPayload: LIVE_SOCKET_HARD_LIMIT } });
  app.addHook('preClose', () => hub.closeAll(1001, 'Server shutting down'));

  registerAuthRoutes(app, { auth, users, dataDir: config.dataDir });
  registerUserRoutes(app, users);
  registerMosqueRoutes(app, {
    mosques,
    summary: () => mosquesSummary({ mosques, prayerTimes, jobs: () => scheduler.jobs('recent') }),
  });
  registerPrayerTimeRoutes(app, { prayerTimes, mosques });
  registerConfigRoutes(app, { configs: recordingConfigs });
  registerActivityRoutes(app, activity);
  registerMonitoringRoutes(app, { monitoring, metricsToken: config.metricsToken });
  registerGithubRoutes(app, github);
  registerSchedulerRoutes(app, scheduler);
  registerAlarmRoutes(app, alarmsModule);
  app.addHook('onReady', () => alarmsModule.start());
  app.addHook('preClose', () => alarmsModule.close());
  app.addHook('onReady', () => scheduler.boot());
  app.addHook('preClose', () => scheduler.close());
  registerCaptureModule(app, capture, { config, hub, monitoring, activity, mosques });
  registerImageRoutes(app, images);
  registerLiveRoutes(app, {
    hub,
    slots: new LiveSocketSlots(db.kysely, db.dialect, clock, servers.id),
    sessions,
    clock,
    allowedOrigins: config.allowedOrigins,
    sessionCheckMs: options.liveSessionCheckMs ?? LIVE_SESSION_CHECK_MS,
  });
  await registerConsole(app, config.consoleDir, unmatchedRequestRecorder(monitoring));

  return Object.assign(app, { ctx });
}
