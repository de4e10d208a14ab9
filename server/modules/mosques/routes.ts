import { z } from 'zod';
import {
  mosqueCreateRequestSchema,
  mosqueDeletedResponseSchema,
  mosqueResponseSchema,
  mosquesListResponseSchema,
  mosqueUpdateRequestSchema,
  newMosqueIdResponseSchema,
} from '../../../contract/config';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import type { MosquesService } from './service';

/** Any id is accepted in the path: one that cannot exist is simply not found (404). */
const idParams = z.strictObject({ mosque_id: z.string().min(1).max(64) });

export function registerMosqueRoutes(app: AppInstance, { mosques }: { mosques: MosquesService }): void {
  app.get(
    '/api/config/mosques',
    { config: { access: 'session' }, schema: { response: { 200: mosquesListResponseSchema } } },
    // A string with a JSON content type is sent as it is (Fastify skips the route's serializer); the
    // service checked it against the same schema. The type provider only knows the object form.
    async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send((await mosques.listBody()) as unknown as z.input<typeof mosquesListResponseSchema>),
  );

  // The Add dialog shows the id before saving: it asks for a fresh one here (a create without one gets one too).
  app.get(
    '/api/config/mosques/new-id',
    { config: { access: 'session' }, schema: { response: { 200: newMosqueIdResponseSchema } } },
    async () => ({ success: true as const, data: { mosque_id: await mosques.newId() } }),
  );

  app.get(
    '/api/config/mosques/:mosque_id',
    { config: { access: 'session' }, schema: { params: idParams, response: { 200: mosqueResponseSchema } } },
    async (request) => ({ success: true as const, data: await mosques.get(request.params.mosque_id) }),
  );

  app.post(
    '/api/config/mosques',
    { config: { access: 'session' }, schema: { body: mosqueCreateRequestSchema, response: { 201: mosqueResponseSchema } } },
    async (request, reply) => {
      const mosque = await mosques.create(request.body, sessionOf(request).user);
      return reply.code(201).send({ success: true as const, data: mosque });
    },
  );

  app.put(
    '/api/config/mosques/:mosque_id',
    {
      config: { access: 'session' },
      schema: { params: idParams, body: mosqueUpdateRequestSchema, response: { 200: mosqueResponseSchema } },
    },
    async (request) => {
      const mosque = await mosques.update(request.params.mosque_id, request.body, sessionOf(request).user);
      return { success: true as const, data: mosque };
    },
  );

  app.delete(
    '/api/config/mosques/:mosque_id',
    { config: { access: 'session' }, schema: { params: idParams, response: { 200: mosqueDeletedResponseSchema } } },
    async (request) => {
      const id = request.params.mosque_id;
      await mosques.remove(id, sessionOf(request).user);
      return { success: true as const, message: `Mosque ${id} deleted successfully`, data: { mosque_id: id } };
    },
  );
}
