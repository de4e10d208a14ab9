import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { errorBodySchema } from '../../../contract/common';
import type { Database } from '../../../server/db/schema';
import { fridayJobRow } from '../../../testkit/job-row';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Tables whose rows a refused request must leave exactly as they were. Left out on purpose: `sessions`
 * (every authenticated call may move last_seen_at) and `activity` (failed sign-ins are recorded by
 * design); `users.last_login` moves with each sign-in the tests make themselves.
 */
const WATCHED: (keyof Database)[] = [
  'users',
  'mosques',
  'instances',
  'recordings',
  'images',
  'scheduler_jobs',
  'scheduler_state',
  'settings',
];

export type Snapshot = Record<string, string[]>;

export async function snapshot(t: TestApp): Promise<Snapshot> {
  // Taken once re-planning started by earlier calls has finished: a plan holds its lease on
  // scheduler_state while it runs, and a half-done plan is not a change a hostile call made.
  await t.app.ctx.scheduler.settled();
  const result: Snapshot = {};
  for (const table of WATCHED) {
    const rows = (await t.app.ctx.db.kysely.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    result[table] = rows
      .map((row) => {
        const copy = { ...row };
        if (table === 'users') delete copy.last_login;
        return JSON.stringify(copy);
      })
      .sort();
  }
  return result;
}

/** The answer is the expected 4xx (or one of them) in the API's error shape, with a sentence and no internals. */
export function expectRefused(
  response: LightMyRequestResponse,
  status: number | number[],
  detail?: RegExp | string,
): string {
  expect([status].flat(), response.body.slice(0, 300)).toContain(response.statusCode);
  const body = errorBodySchema.parse(response.json());
  expect(body.detail.length).toBeGreaterThan(5);
  expect(body.error).toBe(body.detail);
  expect(body.detail).not.toMatch(/\n\s+at |SQLITE_|syntax error at|relation "|node_modules/);
  if (typeof detail === 'string') expect(body.detail).toBe(detail);
  else if (detail) expect(body.detail).toMatch(detail);
  return body.detail;
}

export interface HostileFixture {
  t: TestApp;
  admin: string;
  /** A signed-in non-superuser. */
  user: string;
  userId: number;
  /** A mosque, an ended instance with its recording, a file-less recording, a future job. */
  seeds: { mosqueId: string; instanceId: string; recordingId: string; outsideRecordingId: string; jobId: string };
  /** A file outside every data folder the API serves; path traversal must never reach it. */
  sentinel: string;
}

/** A real app with a little of everything, so that a hostile request has something to damage. */
export async function hostileFixture(): Promise<HostileFixture> {
  const t = await createTestApp({ env: { GITHUB_API_URL: 'http://127.0.0.1:9' }, build: { healthCheckIntervalMs: 0 } });
  const admin = await t.login();
  const plain = await t.createUser({ username: 'plain', role: 'user' });
  const mosque = await t.request({
    method: 'POST',
    url: '/api/config/mosques',
    token: admin,
    payload: {
      mosque_id: 'seedmosque',
      name: 'Seed Mosque',
      languages: ['ar', 'en'],
      latitude: 21.4225,
      longitude: 39.8262,
      timezone: 'Asia/Riyadh',
    },
  });
  if (mosque.statusCode !== 201) throw new Error(`seed mosque: ${mosque.body}`);

  const now = t.clock.now().toISOString();
  const db = t.app.ctx.db.kysely;
  const dataDir = t.config.dataDir;
  const file = path.join(dataDir, 'recordings', 'seedmosque', '20261120T110000Z.mp4');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(2048, 7));
  const sentinel = path.join(path.dirname(dataDir), `${path.basename(dataDir)}-sentinel.txt`);
  fs.writeFileSync(sentinel, 'must survive\n');

  const instance = {
    provider: 'local' as const,
    state: 'stopped' as const,
    instance_type: 'local',
    mosque_id: 'seedmosque',
    url: 'https://streams.example.com/seed.m3u8',
    method: 'api',
    duration: 3600,
    width: 1280,
    height: 720,
    image_id: null,
    launch_time: now,
    running_at: now,
    ended_at: now,
    state_reason: 'Recorded',
    job_id: null,
    updated_at: now,
  };
  await db
    .insertInto('instances')
    .values({ ...instance, id: 'cap-000000seed1', provider_instance_id: 'cap-000000seed1', name: 'capture-seed-1' })
    .execute();
  await db
    .insertInto('instances')
    .values({ ...instance, id: 'cap-000000seed2', provider_instance_id: 'cap-000000seed2', name: 'capture-seed-2' })
    .execute();
  const recording = {
    mosque_id: 'seedmosque',
    url: instance.url,
    status: 'captured' as const,
    started_at: now,
    ended_at: now,
    bytes: 2048,
    duration_seconds: 3600,
    reason: null,
    updated_at: now,
  };
  await db
    .insertInto('recordings')
    .values({ ...recording, id: 'rec-000000seed1', instance_id: 'cap-000000seed1', file_path: file })
    .execute();
  // A row that names a file outside DATA_DIR/recordings (a tampered or legacy row): never served.
  await db
    .insertInto('recordings')
    .values({ ...recording, id: 'rec-000000seed2', instance_id: 'cap-000000seed2', file_path: sentinel })
    .execute();
  await db
    .insertInto('scheduler_jobs')
    .values(
      fridayJobRow('seedmosque-2027-01-01', '2027-01-01T08:55:00Z', {
        name: 'Friday recording: Seed Mosque',
        mosque_id: 'seedmosque',
        mosque_name: 'Seed Mosque',
        timezone: 'Asia/Riyadh',
        url: instance.url,
        width: 1280,
        height: 720,
        created_at: now,
        updated_at: now,
      }),
    )
    .execute();

  return {
    t,
    admin,
    user: plain.token,
    userId: plain.id,
    seeds: {
      mosqueId: 'seedmosque',
      instanceId: 'cap-000000seed1',
      recordingId: 'rec-000000seed1',
      outsideRecordingId: 'rec-000000seed2',
      jobId: 'seedmosque-2027-01-01',
    },
    sentinel,
  };
}

export async function disposeFixture(fixture: HostileFixture | undefined): Promise<void> {
  if (!fixture) return;
  await fixture.t.close();
  fs.rmSync(fixture.sentinel, { force: true });
}

/** The server still answers a normal call after the hostile one. */
export async function expectStillServing(fixture: HostileFixture): Promise<void> {
  const response = await fixture.t.request({
    method: 'GET',
    url: '/api/config/mosques/seedmosque',
    token: fixture.admin,
  });
  expect(response.statusCode).toBe(200);
  expect(response.json().data.name).toBe('Seed Mosque');
}
