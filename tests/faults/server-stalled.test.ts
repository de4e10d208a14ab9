import { afterAll, describe, expect, it } from 'vitest';
import { DEAD_AFTER_MS, HEARTBEAT_MS } from '../../server/modules/servers';
import { startServerCluster, type ClusterServer, type ServerCluster } from '../../testkit/server-cluster';
import { waitFor } from '../../testkit/wait';

interface ServerRow {
  id: string;
  internal_address: string;
  taken_over_by: string | null;
}

/**
 * Three real servers on one PostgreSQL, one of them frozen whole (SIGSTOP: its event loop, its timers,
 * its connections all stand still) as a server starved of CPU or paused by a debugger would be. Frozen
 * for less than its lease (more than one beat), it is not taken over, nothing of it is adopted and no
 * alarm is raised. Frozen past its lease, it is taken over once; woken, it finds its lease taken at its
 * next beat, says so, and stops instead of working on beside the server that took it.
 */
describe('a server frozen under load', () => {
  let cluster: ServerCluster | undefined;
  afterAll(() => cluster?.close());

  const rowsOf = (server: ClusterServer) =>
    cluster!.query<ServerRow>(
      'select id, internal_address, taken_over_by from servers where internal_address = $1 and stopped_at is null',
      [server.baseUrl],
    );
  const freeze = (server: ClusterServer) => process.kill(-(server.pid() ?? 0), 'SIGSTOP');
  const thaw = (server: ClusterServer) => process.kill(-(server.pid() ?? 0), 'SIGCONT');
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const goneAlarms = async (token: string) =>
    (
      await cluster!.request<{ data: { alarms: { kind: string; message: string }[] } }>(
        'GET',
        '/api/alarms?status=all',
        { token },
      )
    ).body.data.alarms.filter((alarm) => alarm.kind === 'server_gone');

  it('keeps its lease through a freeze of two beats, and stops once taken over after a longer one', async () => {
    cluster = await startServerCluster({ servers: 3 });
    const [, brief, long] = cluster.servers;
    const token = await cluster.login();

    freeze(brief);
    await sleep(2 * HEARTBEAT_MS - 500);
    thaw(brief);
    // Long enough for the others' takeover passes to have looked at it (they pass every beat).
    await sleep(2 * HEARTBEAT_MS);
    expect(await rowsOf(brief)).toEqual([expect.objectContaining({ taken_over_by: null })]);
    expect(brief.running()).toBe(true);
    expect(brief.output()).not.toContain('lease was taken over');
    expect(await goneAlarms(token)).toEqual([]);

    const [{ id: longId }] = await rowsOf(long);
    freeze(long);
    await waitFor(
      async () => (await rowsOf(long)).find((row) => row.taken_over_by !== null),
      'the frozen server to be taken over',
      DEAD_AFTER_MS + 3 * HEARTBEAT_MS,
      250,
    );
    thaw(long);
    await waitFor(() => !long.running(), 'the server taken over to stop', 3 * HEARTBEAT_MS + 10_000, 250);
    const [row] = await cluster.query<ServerRow>(
      'select id, internal_address, taken_over_by from servers where id = $1',
      [longId],
    );
    expect(cluster.servers.map((server) => server.baseUrl)).toContain(
      (
        await cluster.query<{ internal_address: string }>('select internal_address from servers where id = $1', [
          row.taken_over_by,
        ])
      )[0]?.internal_address,
    );
    expect(long.output()).toContain(`lease was taken over by ${row.taken_over_by}`);
    const alarms = await goneAlarms(token);
    expect(alarms.map((alarm) => alarm.message)).toEqual([expect.stringContaining(`Server ${longId}`)]);
  });
});
