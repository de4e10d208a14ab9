/**
 * Live feed fan-out: the time from one instance state change (a terminate through the fleet service)
 * to the `instance_status_update` showing it at each of 100 connected consoles, p50 and p95 over all
 * receipts, and the time until all 100 have it; against a bare `ws` server broadcasting a payload of
 * the same size to 100 clients of the same kind in the same run. The changes of both alternate, so
 * the load of the machine weighs on both alike.
 *
 * The server runs in this process (buildApp on a scratch SQLite database, listening on a free port),
 * with an in-memory capture driver (testkit/memory-capture-provider.ts) standing in for ffmpeg: what is measured
 * is the feed (database update, instance list, one serialisation, 100 sockets), not a recorder.
 * The consoles run in a child process (bench/live-clients.ts) so they never share the server's
 * event loop; both processes read the same wall clock (performance.timeOrigin + performance.now()).
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerMessage } from '../contract/live';
import { buildApp, type App } from '../server/app';
import { loadConfig } from '../server/config';
import { MAX_SOCKETS_PER_SESSION } from '../server/modules/live/connection';
import { percentile, round, withRatio, type BenchResult } from './lib';
import type { FromClients, ToClients } from './live-clients';
import { MemoryCaptureProvider } from '../testkit/memory-capture-provider';

const CLIENTS = 100;
/** Changes measured, after WARMUP that are not (JIT, first queries, socket buffers). */
const CHANGES = 50;
const WARMUP = 5;
/** Instances in every update, as in the API benchmark: the live ones plus ended ones. */
const LIST_SIZE = 200;
const PAUSE_MS = 20;
/** A receipt that never came counts as this late (the clients give up on a change after 10 s). */
const MISSING_MS = 10_000;
const PASSWORD = 'Bench-pass-1';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const wallClock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The 100 consoles in their child process, and the IPC conversation with them. */
class Consoles {
  private readonly queue: FromClients[] = [];
  private wake: (() => void) | undefined;
  private exited: string | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: FromClients) => {
      this.queue.push(message);
      this.wake?.();
    });
    child.on('exit', (code, signal) => {
      this.exited = `the live clients exited (${code ?? signal})`;
      this.wake?.();
    });
  }

  static async start(url: string, tokens: string[]): Promise<Consoles> {
    const child = fork(path.join(here, 'live-clients.ts'), [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, LIVE_URL: url, LIVE_CLIENTS: String(CLIENTS), LIVE_TOKENS: tokens.join(',') },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const consoles = new Consoles(child);
    await consoles.next('ready', 90_000);
    return consoles;
  }

  private async next<K extends FromClients['kind']>(
    kind: K,
    timeoutMs: number,
  ): Promise<Extract<FromClients, { kind: K }>> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const failed = this.queue.find((m) => m.kind === 'failed');
      if (failed?.kind === 'failed') throw new Error(`live clients: ${failed.error}`);
      const index = this.queue.findIndex((m) => m.kind === kind);
      if (index >= 0) return this.queue.splice(index, 1)[0] as Extract<FromClients, { kind: K }>;
      if (this.exited) throw new Error(this.exited);
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`live clients: no ${kind} within ${timeoutMs / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private send(message: ToClients): void {
    this.child.send(message);
  }

  /** Latency of one change at each client (ms), MISSING_MS for a client it never reached. */
  async measure(seq: number, instanceId: string, trigger: () => Promise<unknown>): Promise<number[]> {
    this.send({ kind: 'watch', seq, instanceId });
    const watching = await this.next('watching', 10_000);
    if (watching.seq !== seq) throw new Error(`live clients watch ${watching.seq}, not ${seq}`);
    const triggeredAt = wallClock();
    await trigger();
    const { receipts, seq: answered } = await this.next('receipts', 20_000);
    if (answered !== seq) throw new Error(`live clients answered for change ${answered}, not ${seq}`);
    return receipts.map((at) => (at === null ? MISSING_MS : Math.max(0, at - triggeredAt)));
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.exited) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    try {
      this.send({ kind: 'close' });
    } catch {
      // already gone
    }
    await Promise.race([exited, sleep(5000)]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** The baseline: a bare ws server that broadcasts what it is given, serialised once, as the hub does. */
async function bareServer(): Promise<{ url: string; broadcast(message: ServerMessage): void; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const clients = new Set<WebSocket>();
  wss.on('connection', (socket) => {
    socket.once('message', () => {
      clients.add(socket);
      socket.send('{"type":"initial_data"}');
    });
    socket.on('close', () => clients.delete(socket));
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    broadcast(message) {
      const payload = JSON.stringify(message);
      for (const socket of clients) if (socket.readyState === socket.OPEN) socket.send(payload);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** Ended instances of another scope, so every update carries a list of LIST_SIZE like a busy fleet's. */
async function seedEnded(app: App, count: number): Promise<void> {
  const start = Date.parse('2026-11-13T09:00:00Z');
  await app.ctx.db.kysely
    .insertInto('instances')
    .values(
      Array.from({ length: count }, (_, i) => {
        const at = new Date(start + i * 60_000).toISOString();
        return {
          id: `bench-ended-${String(i).padStart(4, '0')}`,
          provider: 'local' as const,
          scope: 'bench-seed',
          provider_instance_id: `bench-ended-${i}`,
          name: `Recorder ${i}`,
          state: 'terminated' as const,
          instance_type: 'local-ffmpeg',
          mosque_id: `mosque${String(i % 50).padStart(4, '0')}`,
          url: `https://streams.example.org/${i}/index.m3u8`,
          method: 'api',
          duration: 7200,
          width: 1280,
          height: 720,
          image_id: null,
          launch_time: at,
          running_at: at,
          ended_at: at,
          state_reason: 'Recorded',
          job_id: null,
          updated_at: at,
        };
      }),
    )
    .execute();
}

/** Launches `count` recorders through the API (50 per request, the contract's limit) and reconciles them to running. */
async function launchLive(app: App, token: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let first = 0; first < count; first += 50) {
    const configs = Array.from({ length: Math.min(50, count - first) }, (_, i) => ({
      url: `https://streams.example.org/live/${first + i}/index.m3u8`,
      duration: 3600,
      width: 1280,
      height: 720,
      // No mosque: a launch may only name a mosque that exists, and the feed's cost does not depend on one.
      mosque_id: null,
    }));
    const response = await app.inject({
      method: 'POST',
      url: '/api/instances/launch',
      headers: { authorization: `Bearer ${token}` },
      payload: { configs, max_workers: 10 },
    });
    if (response.statusCode !== 200) throw new Error(`launch failed: ${response.statusCode} ${response.body}`);
    ids.push(...response.json<{ data: { instances: { id: string }[] } }>().data.instances.map((i) => i.id));
  }
  await app.ctx.instances.reconcile();
  return ids;
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-live-'));
  const config = {
    ...loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_STREAM: '0' }),
    consoleDir: undefined,
  };
  const app = await buildApp(config, {
    logger: false,
    captureDriver: new MemoryCaptureProvider(),
    healthCheckIntervalMs: 0,
  });
  const bare = await bareServer();
  const consoles: Consoles[] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    await app.ctx.users.bootstrapSuperuser({ username: 'admin', password: PASSWORD, dataDir });
    // As many sessions as the consoles need: the server holds at most MAX_SOCKETS_PER_SESSION live sockets per session.
    const tokens: string[] = [];
    for (let i = 0; i < Math.ceil(CLIENTS / MAX_SOCKETS_PER_SESSION); i += 1) {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: PASSWORD },
      });
      tokens.push(login.json<{ access_token: string }>().access_token);
    }
    const [token] = tokens;
    await seedEnded(app, LIST_SIZE - WARMUP - CHANGES);
    const ids = await launchLive(app, token, WARMUP + CHANGES);

    const ours = await Consoles.start(`ws://127.0.0.1:${port}/ws`, tokens);
    consoles.push(ours);
    const theirs = await Consoles.start(bare.url, tokens);
    consoles.push(theirs);

    const latency: number[] = [];
    const bareLatency: number[] = [];
    const allReached: number[] = [];
    const bareAllReached: number[] = [];
    let payloadBytes = 0;
    for (const [seq, id] of ids.entries()) {
      const real = await ours.measure(seq, id, () => app.ctx.instances.terminate([id], 'Live-feed benchmark'));
      const snapshot: ServerMessage = { type: 'instance_status_update', data: await app.ctx.instances.list() };
      payloadBytes = Buffer.byteLength(JSON.stringify(snapshot));
      const baseline = await theirs.measure(seq, id, async () => bare.broadcast(snapshot));
      if (seq >= WARMUP) {
        latency.push(...real);
        bareLatency.push(...baseline);
        allReached.push(Math.max(...real));
        bareAllReached.push(Math.max(...baseline));
      }
      await sleep(PAUSE_MS);
    }

    const missing = latency.filter((ms) => ms >= MISSING_MS).length;
    const label = `bare ws server, same ${Math.round(payloadBytes / 1024)} KiB payload to ${CLIENTS} clients`;
    const receipts = `${latency.length} receipts`;
    const p95 = percentile(latency, 95);
    const results: BenchResult[] = [
      withRatio({
        name: `Live feed: one state change to each of ${CLIENTS} consoles, p50 (${receipts})`,
        figure: round(percentile(latency, 50), 1),
        unit: 'ms',
        baseline: round(percentile(bareLatency, 50), 1),
        baselineLabel: label,
      }),
      withRatio({
        name: `Live feed: one state change to each of ${CLIENTS} consoles, p95 (${receipts})`,
        figure: round(p95, 1),
        unit: 'ms',
        baseline: round(percentile(bareLatency, 95), 1),
        baselineLabel: label,
        budget: 'within 100 ms (p95)',
        withinBudget: p95 < 100,
      }),
      withRatio({
        name: `Live feed: one state change to all ${CLIENTS} consoles, median of ${CHANGES} changes`,
        figure: round(percentile(allReached, 50), 1),
        unit: 'ms',
        baseline: round(percentile(bareAllReached, 50), 1),
        baselineLabel: label,
      }),
      withRatio({
        name: `Live feed: one state change to all ${CLIENTS} consoles, p95 of ${CHANGES} changes`,
        figure: round(percentile(allReached, 95), 1),
        unit: 'ms',
        baseline: round(percentile(bareAllReached, 95), 1),
        baselineLabel: label,
      }),
    ];
    if (missing > 0)
      results.push({
        name: 'Live feed: updates that never reached a console (counted as 10 s late)',
        figure: missing,
        unit: 'receipts',
      });
    return results;
  } finally {
    for (const c of consoles) await c.close();
    await bare.close();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
