import { isPageQuery, type MosquesSummary } from '../../../contract/mosque-list';
import { mosqueRoutes } from '../../../contract/routes/mosques';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { MosquesService } from './service';
import { shownMosque } from './shown-mosque';

export function registerMosqueRoutes(
  app: AppInstance,
  { mosques, summary }: { mosques: MosquesService; summary: () => Promise<MosquesSummary> },
): void {
  // A string with a JSON content type is sent as it is (Fastify skips the route's serializer); the
  // service checked it against the same schema, which the mocks' answers are still checked against.
  handle(app, mosqueRoutes.list, async (request, reply) => {
    if (isPageQuery(request.query)) {
      const { mosques: page, total } = await mosques.page(request.query);
      return { success: true as const, data: { mosques: page.map(shownMosque), total } };
    }
    return reply.type('application/json; charset=utf-8').send(await mosques.listBody());
  });

  handle(app, mosqueRoutes.bulk, async (request) => ({
    success: true as const,
    ...(await mosques.bulk(request.body, sessionOf(request).user)),
  }));

  handle(app, mosqueRoutes.summary, async () => ({ success: true as const, data: await summary() }));

  // The Add dialog shows the id before saving: it asks for a fresh one here (a create without one gets one too).
  handle(app, mosqueRoutes.newId, async () => ({ success: true as const, data: { mosque_id: await mosques.newId() } }));

  handle(app, mosqueRoutes.get, async (request) => ({
    success: true as const,
    data: shownMosque(await mosques.get(request.params.mosque_id)),
  }));

  handle(app, mosqueRoutes.create, async (request) => ({
    success: true as const,
    data: shownMosque(await mosques.create(request.body, sessionOf(request).user)),
  }));

  handle(app, mosqueRoutes.update, async (request) => {
    const mosque = await mosques.update(request.params.mosque_id, request.body, sessionOf(request).user);
    return { success: true as const, data: shownMosque(mosque) };
  });

  handle(app, mosqueRoutes.remove, async (request) => {
    const id = request.params.mosque_id;
    await mosques.remove(id, sessionOf(request).user);
    return { success: true as const, message: `Mosque ${id} deleted successfully`, data: { mosque_id: id } };
  });
}
