import { amiRoutes } from '../../../contract/routes/ami';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { ImagesService } from './service';

export function registerImageRoutes(app: AppInstance, images: ImagesService): void {
  handle(app, amiRoutes.list, async () => ({
    success: true as const,
    data: { amis: await images.list(), provider: images.provider },
  }));

  handle(app, amiRoutes.create, async (request) => {
    const created = await images.create(request.body, sessionOf(request).user);
    return { success: true as const, message: `AMI creation initiated: ${created.ami_id}`, data: created };
  });

  handle(app, amiRoutes.delete, async (request) => {
    await images.delete(request.params.ami_id, sessionOf(request).user);
    return { success: true as const, message: `AMI ${request.params.ami_id} deleted successfully` };
  });
}
