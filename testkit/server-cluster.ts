import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { signalGroup, spawnServerProcess, untilAnswering, type ServerChild } from '../tests/support/server-process';
import { freePort } from './ports';
import { startTemporaryPostgres, type TemporaryPostgres } from './postgres';
import { createPostgresDatabase } from './test-database';

/*
 * Several real servers (`node build/server/main.js` when the build is current, else the sources, as
 * every suite starts them: tests/support/server-process.ts) on one PostgreSQL, with one SECRET_KEY,
 * behind a round-robin HTTP and WebSocket proxy standing in for the operator's load balancer.
 */

export const CLUSTER_ADMIN = { username: 'admin', password: 'Cluster-admin-pass-1' };

export interface ClusterResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One HTTP call; the body parsed as JSON when it is JSON. */
export async function apiRequest<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  url: string,
  options: RequestOptions = {},
): Promise<ClusterResponse<T>> {
  const { token, body, headers = {}, timeoutMs = 30_000 } = options;
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (media, a page): the text stands
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export interface ClusterServer {
  index: number;
  port: number;
  /** Its own address (what it registers as its internal address). */
  baseUrl: string;
  dataDir: string;
  /** Everything this server printed, all its starts included. */
  output(): string;
  running(): boolean;
  pid(): number | undefined;
  /** Signals its process group (the server; its recorders run in groups of their own) and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM (a clean stop, as for an upgrade), SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder. */
  start(): Promise<void>;
  request<T = Record<string, unknown>>(
    method: string,
    url: string,
    options?: RequestOptions,
  ): Promise<ClusterResponse<T>>;
}

export interface ClusterOptions {
  /** How many servers (default 3). */
  servers?: number;
  /** One data folder for every server (recorders adoptable by any of them); default a folder each. */
  sharedDataDir?: boolean;
  /** Environment for every server, on top of the cluster's own. */
  env?: Record<string, string>;
  /** Environment of one server (by index), on top of `env`: its SERVER_HOST_NAME, say, to stand for another machine. */
  envOf?: (index: number) => Record<string, string>;
  timeoutMs?: number;
}

export interface ServerCluster {
  /** The proxy: what a console behind the load balancer talks to. */
  url: string;
  servers: ClusterServer[];
  /** One statement on the cluster's database, on a connection of its own (what the servers wrote). */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** Signs in as the cluster's superuser (through the proxy unless a base URL is given). */
  login(baseUrl?: string): Promise<string>;
  /** A call through the proxy. */
  request<T = Record<string, unknown>>(
    method: string,
    url: string,
    options?: RequestOptions,
  ): Promise<ClusterResponse<T>>;
  /** Stops every server (SIGKILL: recorders are the test's to stop), the proxy and the database. */
  close(): Promise<void>;
}

/**
 * Starts the cluster: the database on TEST_DATABASE_URL's PostgreSQL (a database of its own), or on a
 * temporary cluster when unset; the first server alone (it migrates and creates the superuser), then
 * the others together.
 */
export async function startServerCluster(options: ClusterOptions = {}): Promise<ServerCluster> {
  const count = options.servers ?? 3;
  const timeoutMs = options.timeoutMs ?? 90_000;
  let postgres: TemporaryPostgres | undefined;
  const adminUrl = process.env.TEST_DATABASE_URL ?? (postgres = await startTemporaryPostgres()).adminUrl;
  const database = await createPostgresDatabase(adminUrl);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-cluster-'));
  const secretKey = crypto.randomBytes(32).toString('base64url');
  const shared = {
    DATABASE_URL: database.url,
    SECRET_KEY: secretKey,
    ADMIN_USERNAME: CLUSTER_ADMIN.username,
    ADMIN_PASSWORD: CLUSTER_ADMIN.password,
    DEMO_STREAM: '0',
    ...options.env,
  };
  const servers: ClusterServer[] = [];
  for (let index = 0; index < count; index++) {
    const dataDir = path.join(root, options.sharedDataDir ? 'data' : `data-${index}`);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    servers.push(clusterServer(index, await freePort(), dataDir, { ...shared, ...options.envOf?.(index) }, timeoutMs));
  }
  const proxy = await startRoundRobinProxy(servers.map((server) => server.port));
  const close = async () => {
    await Promise.all(servers.map((server) => server.kill('SIGKILL')));
    await proxy.close();
    await database.drop().catch(() => undefined);
    postgres?.destroy();
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    await servers[0].start();
    await Promise.all(servers.slice(1).map((server) => server.start()));
  } catch (error) {
    await close();
    throw error;
  }
  const request: ServerCluster['request'] = (method, url, requestOptions) =>
    apiRequest(proxy.url, method, url, requestOptions);
  return {
    url: proxy.url,
    servers,
    query: (text, values = []) => queryOnce(database.url, text, values),
    request,
    login: async (baseUrl = proxy.url) => {
      const response = await apiRequest<{ access_token: string }>(baseUrl, 'POST', '/api/auth/login', {
        body: CLUSTER_ADMIN,
      });
      if (response.status !== 200) throw new Error(`Sign-in failed: ${response.status} ${response.text}`);
      return response.body.access_token;
    },
    close,
  };
}

async function queryOnce<T extends pg.QueryResultRow>(
  connectionString: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function clusterServer(
  index: number,
  port: number,
  dataDir: string,
  env: Record<string, string>,
  timeoutMs: number,
): ClusterServer {
  const baseUrl = `http://127.0.0.1:${port}`;
  let current: ServerChild | undefined;
  let earlier = '';
  const kill = async (signal: NodeJS.Signals) => {
    if (!current) return;
    signalGroup(current.child, signal);
    await current.exited;
  };
  return {
    index,
    port,
    baseUrl,
    dataDir,
    output: () => earlier + (current?.output() ?? ''),
    running: () => current?.running() ?? false,
    pid: () => current?.child.pid,
    kill,
    stop: async () => {
      const current_ = current;
      const killer = setTimeout(() => current_ && signalGroup(current_.child, 'SIGKILL'), 10_000);
      await kill('SIGTERM');
      clearTimeout(killer);
    },
    start: async () => {
      earlier += current?.output() ?? '';
      current = spawnServerProcess(port, dataDir, { ...env, INTERNAL_URL: baseUrl });
      await untilAnswering(current, baseUrl, timeoutMs);
    },
    request: (method, url, options) => apiRequest(baseUrl, method, url, options),
  };
}

export interface RoundRobinProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A load balancer in miniature: each HTTP request and each WebSocket goes to the next server in
 * turn; a server that refuses the connection (stopped, killed) is skipped, as a balancer's health
 * check would, and the request goes to the one after it. Request bodies are read whole first, so a
 * skipped request is sent again unchanged.
 */
export async function startRoundRobinProxy(ports: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const order = () => {
    const start = next++ % ports.length;
    return ports.map((_, i) => ports[(start + i) % ports.length]);
  };
  const sockets = new Set<net.Socket>();

  const forward = (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    body: Buffer,
    candidates: number[],
  ) => {
    const [port, ...rest] = candidates;
    if (port === undefined) {
      response.writeHead(502, { 'content-type': 'text/plain' }).end('No server answered');
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && !response.headersSent) forward(request, response, body, rest);
      else response.destroy(error);
    });
    upstream.end(body);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, response, Buffer.concat(chunks), order()));
  });

  server.on('upgrade', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    const head_ = [`${request.method} ${request.url} HTTP/1.1`, ...pairs(request.rawHeaders), '', ''].join('\r\n');
    const connect = (candidates: number[]) => {
      const [port, ...rest] = candidates;
      if (port === undefined) return client.destroy();
      const upstream = net.connect(port, '127.0.0.1');
      sockets.add(upstream);
      upstream.once('close', () => sockets.delete(upstream));
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') connect(rest);
        else client.destroy();
      });
      upstream.once('connect', () => {
        upstream.write(head_);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
    };
    connect(order());
  });

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Raw headers ([name, value, name, value…]) as header lines. */
function pairs(raw: string[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < raw.length; i += 2) lines.push(`${raw[i]}: ${raw[i + 1]}`);
  return lines;
}
