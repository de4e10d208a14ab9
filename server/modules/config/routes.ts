import {
  coordinatesListResponseSchema,
  extractRequestSchema,
  extractResponseSchema,
  generateRequestSchema,
  generateResponseSchema,
  geocodeRequestSchema,
  geocodeResponseSchema,
} from '../../../contract/config';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import type { RecordingConfigService } from './service';

export function registerConfigRoutes(app: AppInstance, { configs }: { configs: RecordingConfigService }): void {
  app.get(
    '/api/config/coordinates',
    { config: { access: 'session' }, schema: { response: { 200: coordinatesListResponseSchema } } },
    async () => ({ success: true as const, data: { coordinates: await configs.coordinates() } }),
  );

  app.post(
    '/api/config/coordinates/extract',
    { config: { access: 'session' }, schema: { body: extractRequestSchema, response: { 200: extractResponseSchema } } },
    async (request) => ({ success: true as const, data: { extraction_results: await configs.extract(request.body) } }),
  );

  app.post(
    '/api/config/geocode',
    { config: { access: 'session' }, schema: { body: geocodeRequestSchema, response: { 200: geocodeResponseSchema } } },
    async (request) => ({ success: true as const, data: configs.geocode(request.body.latitude, request.body.longitude) }),
  );

  app.post(
    '/api/config/generate',
    { config: { access: 'session' }, schema: { body: generateRequestSchema, response: { 200: generateResponseSchema } } },
    async (request) => {
      return { success: true as const, data: await configs.generate(request.body, sessionOf(request).user) };
    },
  );
}
