import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ServerMessage } from '../../../contract/live';
import { buildApp, type App } from '../../../server/app';
import { loadConfig, type Config } from '../../../server/config';
import type { FridayPlanner, PreflightChecks, RecordingLauncher } from '../../../server/modules/scheduler/ports';
import type { CaptureProvider } from '../../../server/capture/provider';
import { FixedTimePlanner, ManualTimer, MemoryLauncher, type PlannedMosque } from '../../../testkit/scheduler-doubles';
import { ManualClock } from '../../../testkit/manual-clock';
import { killRecorders } from '../../../testkit/capture';
import { createPostgresDatabase } from '../../../testkit/test-database';

export const ADMIN = { username: 'admin', password: 'Admin-pass-1' };

/** Mosques in six zones; on 2026-10-31 the US is about to leave DST and the EU just has. */
export const WORLD_MOSQUES: PlannedMosque[] = [
  {
    id: 'nyc0000001',
    name: 'New York Mosque',
    url: 'https://streams.test/ny.m3u8',
    timezone: 'America/New_York',
    fridayPrayer: '12:30',
  },
  {
    id: 'lon0000001',
    name: 'London Mosque',
    url: 'https://streams.test/lon.m3u8',
    timezone: 'Europe/London',
    fridayPrayer: '13:15',
  },
  {
    id: 'syd0000001',
    name: 'Sydney Mosque',
    url: 'https://streams.test/syd.m3u8',
    timezone: 'Australia/Sydney',
    fridayPrayer: '12:45',
  },
  {
    id: 'akl0000001',
    name: 'Auckland Mosque',
    url: 'https://streams.test/akl.m3u8',
    timezone: 'Pacific/Auckland',
    fridayPrayer: '13:00',
  },
  {
    id: 'khi0000001',
    name: 'Karachi Mosque',
    url: 'https://streams.test/khi.m3u8',
    timezone: 'Asia/Karachi',
    fridayPrayer: '13:30',
  },
  {
    id: 'lax0000001',
    name: 'Los Angeles Mosque',
    url: 'https://streams.test/lax.m3u8',
    timezone: 'America/Los_Angeles',
    fridayPrayer: '12:15',
  },
];

export interface SchedulerApp {
  app: App;
  timer: ManualTimer;
  launcher: MemoryLauncher;
  /** Every live-feed message the app published. */
  published: ServerMessage[];
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  login(): Promise<string>;
  /** A firing-loop pass, then every launch it started. */
  runDue(): Promise<void>;
}

/**
 * One database (temporary SQLite file, or a fresh PostgreSQL database when TEST_DATABASE_URL is set)
 * on which any number of apps can be built, in turn (a restart) or side by side (two servers).
 */
export class SchedulerEnv {
  readonly clock: ManualClock;
  planner: FridayPlanner;
  private readonly apps: App[] = [];

  private constructor(
    readonly config: Config,
    private readonly dataDir: string,
    private readonly dropDatabase: (() => Promise<void>) | undefined,
    start: string,
    mosques: PlannedMosque[],
  ) {
    this.clock = new ManualClock(start);
    this.planner = new FixedTimePlanner(mosques.map((m) => ({ ...m })));
  }

  static async create(
    options: { start?: string; mosques?: PlannedMosque[]; env?: Record<string, string> } = {},
  ): Promise<SchedulerEnv> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-sched-'));
    const pg = process.env.TEST_DATABASE_URL
      ? await createPostgresDatabase(process.env.TEST_DATABASE_URL, { migrated: true })
      : undefined;
    const config: Config = {
      // The test streams are served on 127.0.0.1.
      ...loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        DEMO_STREAM: '0',
        ALLOW_PRIVATE_STREAM_HOSTS: '1',
        ...options.env,
      }),
      consoleDir: undefined,
    };
    if (pg) config.databaseUrl = pg.url;
    return new SchedulerEnv(
      config,
      dataDir,
      pg?.drop,
      options.start ?? '2026-10-31T12:00:00Z',
      options.mosques ?? WORLD_MOSQUES,
    );
  }

  get fixedPlanner(): FixedTimePlanner {
    if (!(this.planner instanceof FixedTimePlanner)) throw new Error('planner is not the in-memory one');
    return this.planner;
  }

  /**
   * Builds (and readies) an app on this database, as a server start would.
   * `realPlanner`: plan with the app's own mosques and prayer-times services instead of the in-memory planner;
   * `realLauncher`: launch through the app's capture fleet instead of the in-memory launcher.
   */
  async build(
    options: {
      launcher?: RecordingLauncher;
      planner?: FridayPlanner;
      realPlanner?: boolean;
      realLauncher?: boolean;
      preflight?: PreflightChecks;
      /** Wake on the clock's own timer (fired as the clock moves) instead of the test's. */
      clockTimer?: boolean;
      /** The capture driver instead of the one the config names. */
      captureDriver?: CaptureProvider;
    } = {},
  ): Promise<SchedulerApp> {
    const timer = new ManualTimer();
    const launcher = new MemoryLauncher();
    const app = await buildApp(this.config, {
      logger: false,
      clock: this.clock,
      healthCheckIntervalMs: 0,
      captureDriver: options.captureDriver,
      scheduler: {
        planner: options.realPlanner ? undefined : (options.planner ?? this.planner),
        launcher: options.realLauncher ? undefined : (options.launcher ?? launcher),
        timer: options.clockTimer ? undefined : timer,
        preflight: options.preflight,
      },
    });
    this.apps.push(app);
    await app.ctx.users.bootstrapSuperuser({
      username: ADMIN.username,
      password: ADMIN.password,
      dataDir: this.dataDir,
    });
    const published: ServerMessage[] = [];
    // Kept for the test instead of sent. Not a vi.spyOn: restoreMocks undoes spies before each test, and
    // several files build their app once, in beforeAll.
    app.ctx.hub.publish = (message) => void published.push(message);
    await app.ready();

    const request: SchedulerApp['request'] = ({ token, headers, ...rest }) =>
      app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    const login = async () => {
      const response = await request({ method: 'POST', url: '/api/auth/login', payload: ADMIN });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
      return response.json<{ access_token: string }>().access_token;
    };
    const runDue = async () => {
      await app.ctx.scheduler.tick();
      await app.ctx.scheduler.runner.idle();
    };
    return { app, timer, launcher, published, request, login, runDue };
  }

  /** Stops an app as a clean shutdown would. */
  async stop(app: SchedulerApp): Promise<void> {
    await app.app.close();
    this.apps.splice(this.apps.indexOf(app.app), 1);
  }

  async dispose(): Promise<void> {
    for (const app of this.apps.splice(0)) await app.close();
    await this.dropDatabase?.();
    // A recorder that did not stop in time still writes in its folder: end it before removing the folder.
    killRecorders(this.dataDir);
    fs.rmSync(this.dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

export const messagesOf = <T extends ServerMessage['type']>(published: ServerMessage[], type: T) =>
  published.filter((m): m is Extract<ServerMessage, { type: T }> => m.type === type);

/** The start most scheduler files share: an app on Saturday 31 October 2026, signed in, with the coming Friday scheduled. */
export async function scheduledFriday(
  options: { mosques?: PlannedMosque[]; preflight?: PreflightChecks } = {},
): Promise<{ env: SchedulerEnv; s: SchedulerApp; token: string }> {
  const env = await SchedulerEnv.create({ start: '2026-10-31T12:00:00Z', mosques: options.mosques });
  const s = await env.build({ preflight: options.preflight });
  const token = await s.login();
  const response = await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} });
  if (response.statusCode !== 200) throw new Error(`scheduling the Friday failed: ${response.body}`);
  return { env, s, token };
}
