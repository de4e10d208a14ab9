import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { SystemStatus } from '../../../contract/live';
import { streamUrlFor } from '../../../contract/recording-configs';
import { DemoStream, isDemoStreamUrl } from '../../capture/demo-stream';
import { createStreamUrlGuard } from '../../capture/stream-url-guard';
import { createCaptureDriver } from '../../capture';
import { AwsCaptureProvider } from '../../capture/aws/driver';
import { awsConfigurationChecks } from '../../capture/aws/configuration-checks';
import { S3RecordingStore } from '../../storage/s3-store';
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
import { InstanceCosts } from './cost';
import { FleetCaptureProvider } from './fleet';
import { FleetLiveFeed } from './live';
import { OperatorFleetActions } from './operator';
import { InstancesRepository } from './repository';
import { registerInstanceRoutes } from './routes';
import { InstancesService, type FutureLaunches } from './service';
import { StreamTests } from './stream-tests';
import type { MosquesService } from '../mosques';
import type { MonitoringService } from '../monitoring';
import { registerRecorderMemoryGauges } from './recorder-memory';
import type { RecordingStore } from '../../storage/recording-store';
import type { EventBus } from '../../lib/events';
import type { ServerModule } from '../../lib/server-module';
import type { OtherScopes } from './elsewhere';

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
  registerGauge: MonitoringService['registerGauge'];
}

/** The fleet as other modules use it. */
export interface InstancesModuleService {
  /** The CaptureProvider every other module uses: the configured driver wrapped by the fleet. */
  capture: CaptureProvider;
  /** The bare driver (recorder images, tests, benchmarks). */
  driver: CaptureProvider;
  instances: InstancesService;
  /** GET /api/instances/cost: the EC2 fleet's machines, hours and estimate per Friday and month. */
  costs: InstanceCosts;
  recordings: RecordingsService;
  /**
   * The fleet of another data folder on this machine (a dead server's, whose recorders run on): its
   * recorders seen through a local driver of that folder, its rows kept by the same reconcile.
   */
  fleetOfFolder(dataDir: string): InstancesService;
}

export interface InstancesModuleDeps {
  /** The capture driver's settings (CAPTURE_*, AWS_*, RECORDER_*), the stream guard's and the demo stream's. */
  config: Config;
  clock: Clock;
  db: Db;
  hub: LiveHub;
  log: FastifyBaseLogger;
  events: EventBus;
  activity: ActivityService;
  mosques: Pick<MosquesService, 'listByIds' | 'find'>;
  monitoring?: FleetMonitoring;
  /** A driver to use instead of the one CAPTURE_PROVIDER names. */
  captureDriver?: CaptureProvider;
  /** The recordings store the driver's recorders deliver to. */
  store?: RecordingStore;
  /** How stream hosts are resolved before a launch (default the system's DNS). */
  resolveStreamHost?: HostResolver;
  /** Where a recording's troubles are raised (a recorder that died, a long gap, a partial or failed outcome). */
  alarms?: AlarmsService;
  /** The port this server listens on, once it does (the demo stream is served there). */
  listeningPort: () => number | undefined;
  /** The recorders of other servers (the servers module, built after this one: reached when called). */
  otherScopes?: () => OtherScopes | undefined;
  /** Where launches for later go (the scheduler's one-off jobs, built after this module). */
  futureLaunches?: FutureLaunches;
}

/**
 * The capture fleet: instances, recordings, the live feed of both, stream tests, the demo stream, and
 * the background work: a reconcile pass every `reconcileIntervalMs` of the driver (1 s local, 10 s
 * aws) from the moment the app is ready (which re-adopts recorders left running by a previous
 * server), log pushes every 5 s. Closing the app stops all of that but never the recorders.
 */
export function createInstancesModule(deps: InstancesModuleDeps): ServerModule<InstancesModuleService> {
  const { config, clock, db, hub, log, monitoring } = deps;
  const mosqueName = async (id: string) => (await deps.mosques.find(id))?.name ?? null;
  const driver = deps.captureDriver ?? createCaptureDriver(config, clock, deps.store, log);
  const recordings = createRecordingsService({
    db,
    clock,
    dataDir: config.dataDir,
    alarms: deps.alarms,
    mosqueName,
    events: deps.events,
    contentAlarmSeconds: config.contentAlarmSeconds,
  });
  const live = new FleetLiveFeed(
    hub,
    recordings,
    log,
    () => instances,
    monitoring && ((seconds) => monitoring.recordLaunchDuration(seconds)),
  );
  const joins = storeJoinsFor(deps.store, live, recordings, { ...deps, mosqueName });
  const lateResults = new LateResults(driver, recordings, clock, log, () => live.recordingsChanged());
  const demo = config.demoStream
    ? new DemoStream(path.join(config.dataDir, 'demo-stream'), config.ffmpegPath, log, clock)
    : undefined;
  const checkStreamUrl = createStreamUrlGuard({
    allowPrivate: config.allowPrivateStreamHosts,
    isBuiltIn: (url) => demo !== undefined && isDemoStreamUrl(url, deps.listeningPort(), config.host),
    resolve: deps.resolveStreamHost,
  });
  const repository = new InstancesRepository(db.kysely);
  const instances: InstancesService = new InstancesService(
    repository,
    recordings,
    driver,
    clock,
    live,
    log,
    checkStreamUrl,
    {
      graceSeconds: config.captureGraceSeconds,
      alarms: deps.alarms,
      maxInstances: config.captureProvider === 'aws' ? config.awsMaxInstances : undefined,
      recordingsPerInstance: config.recordingsPerInstance,
    },
    { otherScopes: deps.otherScopes, future: deps.futureLaunches },
  );
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
  const capture = new FleetCaptureProvider(driver, instances);
  const reconcile = reconcileLoop({ instances, joins, lateResults, driver, log });
  const costs = new InstanceCosts(repository, clock, {
    hourlyPrices: config.awsHourlyPrices,
    volumeSizeGb: config.awsVolumeSizeGb,
  });
  const configurationChecks =
    driver instanceof AwsCaptureProvider && deps.store instanceof S3RecordingStore
      ? awsConfigurationChecks({ driver, store: deps.store, instanceProfile: config.awsInstanceProfile })
      : {};

  return {
    service: { capture, driver, instances, costs, recordings, fleetOfFolder },
    register(app) {
      registerFleetRoutes(app, { ...deps, instances, costs, recordings, demo, streamTests });
      hub.provideInitialData(async () => ({
        instances: await instances.list(),
        recordings: await recordings.recent(),
        system_status: monitoring?.lastKnownStatus() ?? 'operational',
      }));
      if (!monitoring) return;
      monitoring.registerHealthCheck('aws', async () => {
        const health = await capture.health();
        return { status: health.status === 'operational' ? 'healthy' : 'unhealthy', detail: health.detail };
      });
      for (const [name, check] of Object.entries(configurationChecks)) monitoring.registerHealthCheck(name, check);
      monitoring.provideInstanceCounts(() => instances.countByState());
      monitoring.provideRecordingCounts(() => recordings.countByStatus());
      const recorderMemory = driver.recorderMemory?.bind(driver);
      if (recorderMemory) registerRecorderMemoryGauges(monitoring, recorderMemory);
    },
    start() {
      live.startLogPushes();
      reconcile.start();
    },
    async close() {
      reconcile.stop();
      live.stopLogPushes();
      await instances.idle();
      await joins?.idle();
      await lateResults.idle();
      await demo?.stop();
      streamTests.close();
      await driver.close?.();
    },
  };
}

function storeJoinsFor(
  store: RecordingStore | undefined,
  live: FleetLiveFeed,
  recordings: RecordingsService,
  deps: InstancesModuleDeps & { mosqueName: (mosqueId: string) => Promise<string | null> },
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

/** The fleet's routes: instances (with the operator's actions and stream tests) and recordings. */
function registerFleetRoutes(
  app: AppInstance,
  deps: InstancesModuleDeps & {
    instances: InstancesService;
    costs: InstanceCosts;
    recordings: RecordingsService;
    demo: DemoStream | undefined;
    streamTests: StreamTests;
  },
): void {
  const { instances, costs, recordings, demo, streamTests } = deps;
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
    costs,
    demo,
    config: deps.config,
    operator,
    streamTests,
    mosqueNames,
    mosqueStreamUrl,
  });
  registerRecordingRoutes(app, recordings);
}

/**
 * A reconcile pass every `reconcileIntervalMs` of the driver, then (in the background: a join fetches
 * and uploads a whole recording, which must not hold up the fleet) the store's joins and late results.
 */
function reconcileLoop(deps: {
  instances: InstancesService;
  joins: StoreJoins | undefined;
  lateResults: LateResults;
  driver: CaptureProvider;
  log: FastifyBaseLogger;
}): { start(): void; stop(): void } {
  const { instances, joins, lateResults, driver } = deps;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let lastError: string | undefined;
  const loop = async () => {
    try {
      await instances.reconcile();
      await instances.capacity.preflight();
      lastError = undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastError) deps.log.warn({ err: error }, 'capture reconcile failed');
      lastError = message;
    }
    if (!stopped) joins?.kick();
    if (!stopped) lateResults.kick();
    if (!stopped) timer = setTimeout(() => void loop(), driver.reconcileIntervalMs);
  };
  return {
    start: () => void loop(),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
