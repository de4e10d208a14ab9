import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { SystemStatus } from '../../../contract/live';
import { streamUrlFor } from '../../../contract/recording-configs';
import { DemoStream, isDemoStreamUrl } from '../../capture/demo-stream';
import { createStreamUrlGuard } from '../../capture/stream-url-guard';
import { createCaptureDriver } from '../../capture';
import type { CaptureProvider } from '../../capture/provider';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { HostResolver } from '../../lib/internal-addresses';
import type { AppInstance } from '../../lib/fastify';
import { badRequest, notFound } from '../../lib/http-error';
import type { ActivityService } from '../activity';
import type { LiveHub } from '../live';
import type { AlarmsService } from '../alarms';
import {
  createRecordingsService,
  createStoreJoins,
  LateResults,
  registerRecordingRoutes,
  type RecordingsService,
  type StoreJoins,
} from '../recordings';
import { resolveFfmpeg, resolveFfprobe } from '../../capture/ffmpeg-path';
import { FleetCaptureProvider } from './fleet';
import { FleetLiveFeed } from './live';
import { OperatorFleetActions } from './operator';
import { InstancesRepository } from './repository';
import { registerInstanceRoutes } from './routes';
import { InstancesService } from './service';
import { StreamTests } from './stream-tests';
import type { MosquesService } from '../mosques';
import type { RecordingStore } from '../../storage/recording-store';

export { InstancesService } from './service';
export { registerInternalInstanceRoutes } from './internal-routes';
export type { Continued, LostScope } from './continuation';
export type { OtherScopes, ScopeFleet } from './elsewhere';

/** What the fleet feeds into monitoring (MonitoringService has these). */
export interface FleetMonitoring {
  registerHealthCheck(name: string, check: () => Promise<{ status: 'healthy' | 'unhealthy'; detail?: string }>): void;
  recordLaunchDuration(seconds: number): void;
  provideInstanceCounts(provider: () => Promise<Record<string, number>>): void;
  provideRecordingCounts(provider: () => Promise<Record<string, number>>): void;
  lastKnownStatus(): SystemStatus | undefined;
}

export interface CaptureModule {
  /** The CaptureProvider every other module uses: the configured driver wrapped by the fleet. */
  capture: CaptureProvider;
  /** The bare driver (tests, benchmarks). */
  driver: CaptureProvider;
  instances: InstancesService;
  recordings: RecordingsService;
  demo: DemoStream | undefined;
  /** "Test stream": half a minute recorded now by the fleet's recorder, outside the fleet. */
  streamTests: StreamTests;
  live: FleetLiveFeed;
  /** Joins the segments of every run of a relaunched recording in a bucket; none for the local store. */
  joins: StoreJoins | undefined;
  /** Reads the store again for recordings judged without their recorder's result. */
  lateResults: LateResults;
  /**
   * The fleet of another data folder on this machine (a dead server's, whose recorders run on): its
   * recorders seen through a local driver of that folder, its rows kept by the same reconcile.
   */
  fleetOfFolder(dataDir: string): InstancesService;
}

export interface CaptureModuleDeps {
  config: Config;
  clock: Clock;
  db: Db;
  hub: LiveHub;
  log: FastifyBaseLogger;
  /** A driver to use instead of the one CAPTURE_PROVIDER names. */
  driver?: CaptureProvider;
  /** The recordings store the driver's recorders deliver to. */
  store?: RecordingStore;
  /** How stream hosts are resolved before a launch (default the system's DNS). */
  resolveStreamHost?: HostResolver;
  /** Where a recording's troubles are raised (a recorder that died, a long gap, a partial or failed outcome). */
  alarms?: AlarmsService;
  /** A mosque's name for alarm messages ("Al Noor Mosque: …" reads better than an id). */
  mosqueName?: (mosqueId: string) => Promise<string | null>;
  /** The port this server listens on, once it does (the demo stream is served there). */
  listeningPort: () => number | undefined;
}

export function createCaptureModule(deps: CaptureModuleDeps): CaptureModule {
  const { config, clock, db, hub, log } = deps;
  const driver = deps.driver ?? createCaptureDriver(config, clock, deps.store);
  const recordings = createRecordingsService({
    db,
    clock,
    dataDir: config.dataDir,
    alarms: deps.alarms,
    mosqueName: deps.mosqueName,
    contentAlarmSeconds: config.contentAlarmSeconds,
  });
  const live = new FleetLiveFeed(hub, recordings, log);
  const joins = storeJoinsFor(deps.store, live, recordings, deps);
  const lateResults = new LateResults(driver, recordings, clock, log, () => live.recordingsChanged());
  const demo = config.demoStream
    ? new DemoStream(path.join(config.dataDir, 'demo-stream'), config.ffmpegPath, log, clock)
    : undefined;
  const checkStreamUrl = createStreamUrlGuard({
    allowPrivate: config.allowPrivateStreamHosts,
    isBuiltIn: (url) => demo !== undefined && isDemoStreamUrl(url, deps.listeningPort(), config.host),
    resolve: deps.resolveStreamHost,
  });
  const instances = new InstancesService(
    new InstancesRepository(db.kysely),
    recordings,
    driver,
    clock,
    live,
    log,
    checkStreamUrl,
    { graceSeconds: config.captureGraceSeconds, alarms: deps.alarms },
  );
  live.attach(instances);
  const streamTests = new StreamTests({
    dataDir: config.dataDir,
    clock,
    ffmpegPath: config.ffmpegPath,
    ffprobePath: config.ffprobePath,
    ytDlpPath: config.ytDlpPath,
    allowPrivateStreamHosts: config.allowPrivateStreamHosts,
    checkStreamUrl,
    warmUp: (url) => {
      if (demo && isDemoStreamUrl(new URL(url), deps.listeningPort(), config.host)) demo.use();
    },
  });
  const fleetOfFolder = (dataDir: string) =>
    new InstancesService(
      new InstancesRepository(db.kysely),
      recordings,
      createCaptureDriver({ ...config, dataDir }, clock, deps.store),
      clock,
      live,
      log,
      checkStreamUrl,
    );
  return {
    capture: new FleetCaptureProvider(driver, instances),
    driver,
    instances,
    recordings,
    demo,
    streamTests,
    live,
    joins,
    lateResults,
    fleetOfFolder,
  };
}

function storeJoinsFor(
  store: RecordingStore | undefined,
  live: FleetLiveFeed,
  recordings: RecordingsService,
  deps: CaptureModuleDeps,
): StoreJoins | undefined {
  if (store?.kind !== 's3') return undefined;
  // Without ffmpeg every join fails, and says so in its alarm.
  const ffmpegPath = resolveFfmpeg(deps.config.ffmpegPath)?.path ?? 'ffmpeg';
  const ffprobePath = resolveFfprobe(ffmpegPath, deps.config.ffprobePath) ?? 'ffprobe';
  return createStoreJoins({
    ...deps,
    dataDir: deps.config.dataDir,
    store,
    ffmpegPath,
    ffprobePath,
    onJoined: (instanceId) => {
      live.recordingsChanged();
      recordings.revised(instanceId);
    },
  });
}

/**
 * Routes, the live feed, monitoring hooks, and the background work: a reconcile pass every
 * `reconcileIntervalMs` of the driver (1 s local, 10 s aws) from the moment the app is ready (which
 * re-adopts recorders left running by a previous server), log pushes every 5 s, and the demo stream.
 * Closing the app stops all of that but never the recorders.
 */
export function registerCaptureModule(
  app: AppInstance,
  module: CaptureModule,
  deps: {
    config: Config;
    hub: LiveHub;
    monitoring?: FleetMonitoring;
    activity: ActivityService;
    mosques: Pick<MosquesService, 'listByIds'>;
  },
): void {
  const { instances, recordings, demo, streamTests, live, capture, driver, joins, lateResults } = module;
  const { hub, monitoring } = deps;

  const operator = new OperatorFleetActions({ instances, activity: deps.activity, mosques: deps.mosques });
  const mosqueNames = async (ids: string[]) =>
    new Map((await deps.mosques.listByIds(ids)).map((mosque) => [mosque.mosque_id, mosque.name]));
  const mosqueStreamUrl = async (mosqueId: string) => {
    const [mosque] = await deps.mosques.listByIds([mosqueId]);
    if (!mosque) throw notFound(`Mosque ${mosqueId} not found`);
    if (!mosque.ID_token?.trim()) throw badRequest('Mosque has no stream identifier (ID_token)');
    return streamUrlFor(mosque.ID_token, deps.config.streamUrlTemplate);
  };
  registerInstanceRoutes(app, {
    instances,
    demo,
    config: deps.config,
    operator,
    streamTests,
    mosqueNames,
    mosqueStreamUrl,
  });
  registerRecordingRoutes(app, recordings);

  hub.provideInitialData(async () => ({
    instances: await instances.list(),
    recordings: await recordings.recent(),
    system_status: monitoring?.lastKnownStatus() ?? 'operational',
  }));

  if (monitoring) {
    live.onRunning = (seconds) => monitoring.recordLaunchDuration(seconds);
    monitoring.registerHealthCheck('aws', async () => {
      const health = await capture.health();
      return { status: health.status === 'operational' ? 'healthy' : 'unhealthy', detail: health.detail };
    });
    monitoring.provideInstanceCounts(() => instances.countByState());
    monitoring.provideRecordingCounts(() => recordings.countByStatus());
  }

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let lastError: string | undefined;
  const loop = async () => {
    try {
      await instances.reconcile();
      lastError = undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastError) app.log.warn({ err: error }, 'capture reconcile failed');
      lastError = message;
    }
    // In the background: a join fetches and uploads a whole recording, which must not hold up the fleet.
    if (!stopped) joins?.kick();
    if (!stopped) lateResults.kick();
    if (!stopped) timer = setTimeout(() => void loop(), driver.reconcileIntervalMs);
  };

  app.addHook('onReady', async () => {
    live.startLogPushes();
    void loop();
  });
  app.addHook('preClose', async () => {
    stopped = true;
    clearTimeout(timer);
    live.stopLogPushes();
    await instances.idle();
    await joins?.idle();
    await lateResults.idle();
    await demo?.stop();
    streamTests.close();
    await driver.close?.();
  });
}
