import {
  amiCreateRequestSchema,
  amiCreateResponseSchema,
  amiDeleteResponseSchema,
  amiIdParamsSchema,
  amiListResponseSchema,
} from '../../../contract/ami';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import type { ImagesService } from './service';

export function registerImageRoutes(app: AppInstance, images: ImagesService): void {
  app.get('/api/ami/list', { config: { access: 'session' }, schema: { response: { 200: amiListResponseSchema } } }, async () => ({
    success: true as const,
    data: { amis: await images.list() },
  }));

  app.post(
    '/api/ami/create',
    { config: { access: 'session' }, schema: { body: amiCreateRequestSchema, response: { 200: amiCreateResponseSchema } } },
    async (request) => {
      const created = await images.create(request.body, sessionOf(request).user);
      return { success: true as const, message: `AMI creation initiated: ${created.ami_id}`, data: created };
    },
  );

  app.delete(
    '/api/ami/:ami_id',
    { config: { access: 'session' }, schema: { params: amiIdParamsSchema, response: { 200: amiDeleteResponseSchema } } },
    async (request) => {
      await images.delete(request.params.ami_id, sessionOf(request).user);
      return { success: true as const, message: `AMI ${request.params.ami_id} deleted successfully` };
    },
  );
}
