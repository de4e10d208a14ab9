import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServerCluster, type ServerCluster } from '../../../testkit/server-cluster';

/**
 * Three real servers on one PostgreSQL behind the round-robin proxy (testkit/server-cluster.ts): each
 * is in the servers table under its own internal address, the proxy spreads requests and live
 * sockets over them, and a server stopped cleanly is dead at once for the others.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('three servers on one PostgreSQL', () => {
  let cluster: ServerCluster;
  beforeAll(async () => {
    cluster = await startServerCluster({ servers: 3 });
  }, 180_000);
  afterAll(() => cluster?.close());

  async function serverRows() {
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      return (await client.query<{ id: string; internal_address: string; scope: string; last_seen: string }>('select * from servers order by internal_address')).rows;
    } finally {
      await client.end();
    }
  }

  it('registers every server with its own internal address and scope', async () => {
    const rows = await serverRows();
    expect(rows.map((row) => row.internal_address).sort()).toEqual(cluster.servers.map((s) => s.baseUrl).sort());
    expect(new Set(rows.map((row) => row.scope)).size, 'a data folder each: a scope each').toBe(3);
  });

  it('spreads HTTP and live sockets over the servers, one session valid on all', async () => {
    const token = await cluster.login();
    for (const server of cluster.servers) expect((await server.request('GET', '/api/auth/verify-token', { token })).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await cluster.request('GET', '/api/instances/', { token })).status).toBe(200);
    const socket = new WebSocket(`${cluster.url.replace('http', 'ws')}/ws`, { origin: cluster.url });
    const initial = new Promise<{ type: string }>((resolve, reject) => {
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { type: string };
        if (message.type === 'initial_data') resolve(message);
      });
      socket.once('error', reject);
    });
    socket.once('open', () => socket.send(JSON.stringify({ action: 'client_connected', timestamp: new Date().toISOString(), token })));
    expect((await initial).type).toBe('initial_data');
    socket.close();
  });

  it('a server stopped cleanly is dead for the others at once, and the proxy skips it', async () => {
    const token = await cluster.login();
    const [, second] = cluster.servers;
    await second.stop();
    const rows = await serverRows();
    const stopped = rows.find((row) => row.internal_address === second.baseUrl);
    expect(Date.now() - Date.parse(stopped?.last_seen ?? '')).toBeGreaterThan(20_000);
    for (let i = 0; i < 6; i++) expect((await cluster.request('GET', '/api/instances/', { token })).status).toBe(200);
    await second.start();
    const back = (await serverRows()).filter((row) => row.internal_address === second.baseUrl);
    expect(back.some((row) => Date.now() - Date.parse(row.last_seen) < 20_000), 'registered again').toBe(true);
  });
});
