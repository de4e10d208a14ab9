import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { TerminateResult } from '../../../contract/instances';
import type { AppInstance } from '../../lib/fastify';
import { conflict } from '../../lib/http-error';
import type { InstancesService } from './service';

const terminateBody = z.strictObject({
  instance_ids: z.array(z.string().min(1).max(100)).min(1).max(1000),
  reason: z.string().min(1).max(500),
});
const logsParams = z.strictObject({ id: z.string().min(1).max(100) });
const logsQuery = z.strictObject({ lines: z.coerce.number().int().min(1).max(10_000).default(100) });

/**
 * What another server sharing the database asks this one to do to the recorders it runs (its own
 * scope, or one it adopted): stop them, read their logs. Signed calls only (InternalCalls.guard);
 * a call is never passed on again, so two servers cannot bounce one between them.
 */
export function registerInternalInstanceRoutes(
  app: AppInstance,
  deps: { guard: (request: FastifyRequest) => Promise<void>; fleets: () => InstancesService[] },
): void {
  const fleetOf = (scope: string) =>
    deps.fleets().find((fleet) => fleet.scope === scope || (!scope && fleet === deps.fleets()[0]));
  const config = { access: 'public' as const };

  app.post(
    '/internal/instances/terminate',
    { config, preValidation: deps.guard, schema: { body: terminateBody } },
    async (request) => {
      const { instance_ids, reason } = request.body;
      const [own] = deps.fleets();
      const results = await Promise.all(
        instance_ids.map(async (id): Promise<TerminateResult> => {
          const row = await own.resolve(id).catch(() => undefined);
          const fleet = row && fleetOf(row.scope);
          return fleet
            ? (await fleet.terminateHere([id], reason))[0]
            : {
                instance_id: id,
                success: false,
                state: row?.state ?? null,
                message: row ? `Instance ${id} does not run on this server` : `Instance ${id} not found`,
              };
        }),
      );
      return { results };
    },
  );

  app.get(
    '/internal/instances/:id/logs',
    { config, preValidation: deps.guard, schema: { params: logsParams, querystring: logsQuery } },
    async (request) => {
      const row = await deps.fleets()[0].resolve(request.params.id);
      const fleet = fleetOf(row.scope);
      if (!fleet) throw conflict(`Instance ${row.id} does not run on this server`);
      return { logs: (await fleet.logs(row.id, request.query.lines)).logs };
    },
  );
}
