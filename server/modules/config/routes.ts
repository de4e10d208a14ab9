import { configRoutes } from '../../../contract/routes/config';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { ActivityService } from '../activity/service';
import type { RecordingConfigService } from './service';

export function registerConfigRoutes(app: AppInstance, { configs, activity }: { configs: RecordingConfigService; activity: ActivityService }): void {
  handle(app, configRoutes.coordinates, async () => ({ success: true as const, data: { coordinates: await configs.coordinates() } }));

  handle(app, configRoutes.extract, async (request) => ({ success: true as const, data: { extraction_results: await configs.extract(request.body) } }));

  handle(app, configRoutes.geocode, (request) => ({ success: true as const, data: configs.geocode(request.body.latitude, request.body.longitude) }));

  handle(app, configRoutes.generate, async (request) => {
    const data = await configs.generate(request.body);
    await activity.record({
      actor: sessionOf(request).user,
      action: 'config.generate',
      detail: { total_configs: data.total_configs, mosque_ids: data.recordings.map((r) => r.mosque_id), method: request.body.method },
    });
    return { success: true as const, data };
  });
}
