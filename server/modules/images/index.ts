import type { FastifyBaseLogger } from 'fastify';
import type { CaptureProvider } from '../../capture/provider';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { ServerModule } from '../../lib/server-module';
import type { ActivityService } from '../activity';
import type { InstancesService } from '../instances';
import { ImagesRepository } from './repository';
import { registerImageRoutes } from './routes';
import { ImagesService } from './service';

export { ImagesService } from './service';

/** Recorder images on the bare capture driver; the instances service tells which images are in use. */
export function createImagesModule(deps: {
  db: Db;
  driver: CaptureProvider;
  instances: InstancesService;
  clock: Clock;
  log: FastifyBaseLogger;
  activity: ActivityService;
}): ServerModule<ImagesService> {
  const service = new ImagesService(
    new ImagesRepository(deps.db.kysely),
    deps.driver,
    deps.instances,
    deps.clock,
    deps.log,
    deps.activity,
  );
  return { service, register: (app) => registerImageRoutes(app, service) };
}
