import { amiRoutes } from '../../../contract/routes/ami';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { ActivityService } from '../activity/service';
import type { ImagesService } from './service';

export function registerImageRoutes(app: AppInstance, images: ImagesService, activity: ActivityService): void {
  handle(app, amiRoutes.list, async () => ({
    success: true as const,
    data: { amis: await images.list() },
  }));

  handle(app, amiRoutes.create, async (request) => {
    const created = await images.create(request.body);
    await activity.record({
      actor: sessionOf(request).user,
      action: 'image.create',
      target: { type: 'image', id: created.ami_id, label: request.body.name },
      detail: { instance_id: request.body.instance_id, version: request.body.version },
    });
    return { success: true as const, message: `AMI creation initiated: ${created.ami_id}`, data: created };
  });

  handle(app, amiRoutes.delete, async (request) => {
    await images.delete(request.params.ami_id);
    await activity.record({ actor: sessionOf(request).user, action: 'image.delete', target: { type: 'image', id: request.params.ami_id } });
    return { success: true as const, message: `AMI ${request.params.ami_id} deleted successfully` };
  });
}
