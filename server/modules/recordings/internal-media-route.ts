import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppInstance } from '../../lib/fastify';
import type { RecordingStore } from '../../storage/recording-store';
import type { RecordingsLibrary } from './library';
import { sendMedia } from './library-routes';

const params = z.strictObject({ id: z.string().min(1).max(100) });
const query = z.strictObject({ download: z.enum(['1']).optional() });

/**
 * The media of a recording on this server's disk, for another server that was asked for it (its own
 * local store is another folder): the same answer, Range included, to a signed call only. Never
 * passed on again: media not here is a 404.
 */
export function registerInternalMediaRoute(app: AppInstance, deps: { guard: (request: FastifyRequest) => Promise<void>; library: RecordingsLibrary; store: RecordingStore }): void {
  app.get('/internal/recordings/:id/media', { config: { access: 'public' }, preValidation: deps.guard, schema: { params, querystring: query } }, async (request, reply) => {
    const media = await deps.library.media(request.params.id);
    return sendMedia(reply, deps.store, media, request.headers.range, Boolean(request.query.download));
  });
}
