import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppInstance } from '../../lib/fastify';
import type { RecordingStore } from '../../storage/recording-store';
import type { RecordingsLibrary } from './library';
import { sendMedia } from './library-routes';

const params = z.strictObject({ id: z.string().min(1).max(100) });
const query = z.strictObject({ download: z.enum(['1']).optional() });
/** The operator who asked the other server (for the activity log), or null for the server itself. */
const deleteBody = z.strictObject({
  actor: z.strictObject({ id: z.number().int().nullable(), username: z.string().min(1).max(200) }).nullable(),
});

/**
 * The recordings on this server's disk, for another server that was asked about them (its own local
 * store is another folder): their media, the same answer, Range included; their deletion, file and
 * row together. Signed calls only; never passed on again: a recording not here is a 404.
 */
export function registerInternalRecordingRoutes(
  app: AppInstance,
  deps: { guard: (request: FastifyRequest) => Promise<void>; library: RecordingsLibrary; store: RecordingStore },
): void {
  const config = { access: 'public' as const };

  app.get(
    '/internal/recordings/:id/media',
    { config, preValidation: deps.guard, schema: { params, querystring: query } },
    async (request, reply) => {
      const media = await deps.library.media(request.params.id);
      return sendMedia(reply, deps.store, media, request.headers.range, Boolean(request.query.download));
    },
  );

  app.post(
    '/internal/recordings/:id/delete',
    { config, preValidation: deps.guard, schema: { params, body: deleteBody } },
    async (request) => {
      await deps.library.deleteHeldHere(request.params.id, request.body.actor);
      return { success: true as const };
    },
  );
}
