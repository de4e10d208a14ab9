import { countOf } from '../../../contract/plural';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { instancesListResponseSchema, type Instance, type TerminateResult } from '../../../contract/instances';
import { instanceRoutes } from '../../../contract/routes/instances';
import { DEMO_PLAYLIST, type DemoStream } from '../../capture/demo-stream';
import type { Config } from '../../config';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { badRequest, notFound } from '../../lib/http-error';
import { encodedBodies, sendEncoded } from '../../lib/encoded-bodies';
import { handle } from '../../lib/route-table';
import type { InstanceCosts } from './cost';
import type { OperatorFleetActions } from './operator';
import { instancesPage, type MosqueNames } from './page';
import type { InstancesService } from './service';
import type { StreamTests } from './stream-tests';

function terminateBody(results: TerminateResult[], what: string) {
  const terminated = results.filter((r) => r.success).length;
  const failed = results.length - terminated;
  const message =
    results.length === 0
      ? 'No running or pending instances'
      : `${what}: ${countOf(terminated, 'instance')} terminating${failed ? `, ${failed} failed` : ''}`;
  return { success: true as const, message, data: { results, terminated, failed } };
}

/** Where recorders on this machine reach the demo stream (the server's own listening address). */
function demoUrl(app: AppInstance, config: Config): string {
  const address = app.server.address() as AddressInfo | null;
  const port = address && typeof address === 'object' ? address.port : config.port;
  const host = ['0.0.0.0', '::', ''].includes(config.host)
    ? '127.0.0.1'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  return `http://${host}:${port}/demo/${DEMO_PLAYLIST}`;
}

export function registerInstanceRoutes(
  app: AppInstance,
  deps: {
    instances: InstancesService;
    costs: InstanceCosts;
    demo: DemoStream | undefined;
    config: Config;
    operator: OperatorFleetActions;
    streamTests: StreamTests;
    mosqueNames: MosqueNames;
    /** The stream a mosque's Friday recording will open (its ID_token resolved); 404/400 when there is none. */
    mosqueStreamUrl: (mosqueId: string) => Promise<string>;
  },
): void {
  const { instances, demo, operator } = deps;

  // What every console polls: the service shares one list between readers until the fleet changes.
  const listBody = encodedBodies((list: Instance[]) =>
    instancesListResponseSchema.encode({ success: true, data: list }),
  );
  // docs/reference.md calls GET /api/instances/ with its trailing slash; both spellings answer.
  for (const declaration of [instanceRoutes.list, instanceRoutes.listWithoutSlash]) {
    handle(app, declaration, async (_request, reply) => sendEncoded(reply, listBody(await instances.list())));
  }

  handle(app, instanceRoutes.page, async (request) => ({
    success: true as const,
    data: await instancesPage(await instances.list(), request.query, deps.mosqueNames),
  }));

  handle(app, instanceRoutes.cost, async () => ({ success: true as const, data: await deps.costs.report() }));

  handle(app, instanceRoutes.launch, async (request) => {
    const { configs, max_workers } = request.body;
    const result = await operator.launch(sessionOf(request).user, configs, max_workers);
    const later = result.scheduled.length ? `; ${result.scheduled.length} scheduled for their start_at` : '';
    const message =
      result.failed.length === 0
        ? `Launched ${countOf(result.instances.length, 'instance')}${later}`
        : `Launched ${result.instances.length} of ${countOf(configs.length, 'instance')}${later}; ${result.failed.length} failed`;
    return { success: true as const, message, data: result };
  });

  handle(app, instanceRoutes.terminate, async (request) => {
    return terminateBody(await operator.terminate(sessionOf(request).user, request.body.instance_ids), 'Terminate');
  });

  handle(app, instanceRoutes.terminateAll, async (request) => {
    if (request.query.force !== 'true')
      throw badRequest('Emergency stop needs force=true to confirm stopping every instance');
    return terminateBody(await operator.emergencyStop(sessionOf(request).user), 'Emergency stop');
  });

  handle(app, instanceRoutes.closeLaunchBreaker, async (request) => {
    await operator.closeLaunchBreaker(sessionOf(request).user);
    return { success: true as const, message: 'Launch breaker closed: launches resume' };
  });

  // Asked by the launch dialog: the stream warms up while the operator fills it in.
  handle(app, instanceRoutes.demoStream, () => {
    demo?.use();
    return { success: true as const, data: { url: demo ? demoUrl(app, deps.config) : null } };
  });

  handle(app, instanceRoutes.details, async (request) => ({
    success: true as const,
    data: await instances.details(request.params.id),
  }));

  handle(app, instanceRoutes.logs, async (request) => {
    const { instanceId, logs } = await instances.logs(request.params.id, request.query.lines);
    return { success: true as const, data: { instance_id: instanceId, logs, live: request.query.live } };
  });

  handle(app, instanceRoutes.streamTest, async (request) => {
    const { url, mosque_id: mosqueId } = request.body;
    // The schema lets exactly one through.
    const stream = url ?? (await deps.mosqueStreamUrl(mosqueId ?? ''));
    return { success: true as const, data: await deps.streamTests.test(stream) };
  });

  // The clip itself (the console fetches it with its bearer token as a blob). No response schema: it is binary.
  handle(app, instanceRoutes.streamTestClip, async (request, reply) => {
    const clip = deps.streamTests.clip(request.params.id);
    return reply
      .header('content-type', 'video/mp4')
      .header('content-length', String(clip.size))
      .header('cache-control', 'private, no-store')
      .send(fs.createReadStream(clip.path));
  });

  // The test broadcast: public, like any stream a recorder captures (it holds nothing but a test pattern).
  app.get(
    '/demo/:file',
    { config: { access: 'public' }, schema: { params: z.strictObject({ file: z.string().max(64) }) } },
    async (request, reply) => {
      const file = demo?.file(request.params.file);
      // Segments are small and deleted as the stream moves on: read whole, so a vanished one is a clean 404.
      const body = file ? await fs.promises.readFile(file.path).catch(() => undefined) : undefined;
      if (!file || !body) throw notFound('No such demo stream file');
      return reply.header('content-type', file.type).header('cache-control', 'no-cache').send(body);
    },
  );
}
