import { configRoutes } from '../../../contract/routes/mosques';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { RecordingConfigService } from './service';

export function registerConfigRoutes(app: AppInstance, { configs }: { configs: RecordingConfigService }): void {
  handle(app, configRoutes.coordinates, async () => ({
    success: true as const,
    data: { coordinates: await configs.coordinates() },
  }));

  handle(app, configRoutes.extract, async (request) => ({
    success: true as const,
    data: { extraction_results: await configs.extract(request.body) },
  }));

  handle(app, configRoutes.geocode, (request) => ({
    success: true as const,
    data: configs.geocode(request.body.latitude, request.body.longitude),
  }));

  handle(app, configRoutes.generate, async (request) => ({
    success: true as const,
    data: await configs.generate(request.body, sessionOf(request).user),
  }));
}
