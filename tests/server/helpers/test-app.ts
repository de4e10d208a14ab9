import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type App, type BuildOptions } from '../../../server/app';
import { loadConfig, type Config } from '../../../server/config';
import { sqlitePath } from '../../../server/db';
import { ManualClock } from '../../../testkit/manual-clock';
import { ManualTimer } from '../../../testkit/scheduler-doubles';
import { createPostgresDatabase } from '../../../testkit/test-database';

export const ADMIN = { username: 'admin', password: 'Admin-pass-1' };

export interface TestApp {
  app: App;
  clock: ManualClock;
  config: Config;
  /** Signs in and returns the bearer token. */
  login(username?: string, password?: string): Promise<string>;
  /** `inject` with an optional bearer token. */
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** Creates a user through the API as the admin and returns its token. */
  createUser(fields: {
    username: string;
    password?: string;
    is_superuser?: boolean;
    role?: 'admin' | 'user';
  }): Promise<{ id: number; token: string }>;
  close(): Promise<void>;
}

/**
 * A real app on a real, empty database: a temporary SQLite file, or a database of its own on the
 * PostgreSQL named by TEST_DATABASE_URL (`npm run test:pg`; testkit/test-database.ts). The superuser
 * `admin` exists.
 */
export async function createTestApp(
  options: { env?: Record<string, string>; clock?: ManualClock; build?: Omit<BuildOptions, 'clock'> } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-test-'));
  const pgDatabase = process.env.TEST_DATABASE_URL
    ? await createPostgresDatabase(process.env.TEST_DATABASE_URL, { migrated: true })
    : undefined;
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DEMO_STREAM: '0',
      // The test streams are served on 127.0.0.1; tests of the stream-host guard set it back to '0'.
      ALLOW_PRIVATE_STREAM_HOSTS: '1',
      // CI runs the suites beside each other: .ci/run says why its recorders and encodes keep the server's priority.
      ...(process.env.RECORDER_NICENESS ? { RECORDER_NICENESS: process.env.RECORDER_NICENESS } : {}),
      ...(process.env.AUDIO_NICENESS ? { AUDIO_NICENESS: process.env.AUDIO_NICENESS } : {}),
      ...options.env,
    }),
    consoleDir: undefined,
  };
  if (pgDatabase) config.databaseUrl = pgDatabase.url;
  else if (!config.databaseUrl) copyMigratedSqlite(sqlitePath(config));
  const clock = options.clock ?? new ManualClock('2026-11-23T09:00:00Z');
  const app = await buildTestServer(config, clock, options.build);
  await app.ctx.users.bootstrapSuperuser({ username: ADMIN.username, password: ADMIN.password, dataDir });
  return wrap(app, clock, config, async () => {
    await app.close();
    await pgDatabase?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
}

/**
 * Another server on the same database, data folder and secret key as `first` (as servers behind one
 * load balancer share them), on the same clock. Closing it leaves the database to `first`.
 * `config` sets what differs, e.g. a data folder of its own (made and removed here) and its address.
 */
export async function createPeerApp(
  first: TestApp,
  build?: Omit<BuildOptions, 'clock'>,
  config: Partial<Config> = {},
): Promise<TestApp> {
  const peerConfig = { ...first.config, ...config };
  if (config.dataDir) fs.mkdirSync(config.dataDir, { recursive: true });
  const app = await buildTestServer(peerConfig, first.clock, build);
  return wrap(app, first.clock, peerConfig, async () => {
    await app.close();
    if (config.dataDir) fs.rmSync(config.dataDir, { recursive: true, force: true });
  });
}

/** Puts a copy of the run's migrated, otherwise empty SQLite database (global-setup.ts) at `file`, unless one is there. */
function copyMigratedSqlite(file: string): void {
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(inject('migratedSqlite'), file);
}

function buildTestServer(
  config: Config,
  clock: ManualClock,
  build: Omit<BuildOptions, 'clock'> | undefined,
): Promise<App> {
  // The scheduler wakes only when a test calls tick(): moving the clock in a test about something else starts no pass.
  const scheduler = { timer: new ManualTimer(), ...build?.scheduler };
  return buildApp(config, { logger: false, ...build, scheduler, clock });
}

function wrap(app: App, clock: ManualClock, config: Config, close: () => Promise<void>): TestApp {
  const request: TestApp['request'] = ({ token, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  const login: TestApp['login'] = async (username = ADMIN.username, password = ADMIN.password) => {
    const response = await request({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    if (response.statusCode !== 200)
      throw new Error(`login ${username} failed: ${response.statusCode} ${response.body}`);
    return response.json<{ access_token: string }>().access_token;
  };

  let adminToken: string | undefined;
  const createUser: TestApp['createUser'] = async ({
    username,
    password = 'User-pass-1',
    is_superuser = false,
    role = 'user',
  }) => {
    adminToken ??= await login();
    const response = await request({
      method: 'POST',
      url: '/api/auth/users',
      token: adminToken,
      payload: { username, email: `${username}@example.com`, password, role, is_active: true, is_superuser },
    });
    if (response.statusCode !== 201)
      throw new Error(`create ${username} failed: ${response.statusCode} ${response.body}`);
    return { id: response.json<{ data: { id: number } }>().data.id, token: await login(username, password) };
  };

  return { app, clock, config, login, request, createUser, close };
}
