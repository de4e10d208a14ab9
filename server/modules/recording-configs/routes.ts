import { configRoutes } from '../../../contract/routes/mosques';
import { maskUrlSecrets } from '../../../recorder/url-secrets';
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

  // The file is shown and downloaded: its stream URLs are masked as every answer's are (record-file.ts refuses them).
  handle(app, configRoutes.generate, async (request) => {
    const data = await configs.generate(request.body, sessionOf(request).user);
    const recordings = data.recordings.map((recording) => ({ ...recording, url: maskUrlSecrets(recording.url) }));
    return { success: true as const, data: { ...data, recordings } };
  });
}
