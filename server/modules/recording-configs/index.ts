import type { FastifyBaseLogger } from 'fastify';
import { MapsLinkResolver } from '../../geo/maps-link';
import type { ServerModule } from '../../lib/server-module';
import type { ActivityService } from '../activity';
import type { MosquesService } from '../mosques';
import type { PrayerTimesService } from '../prayer-times';
import { registerConfigRoutes } from './routes';
import { RecordingConfigService } from './service';
import type { ConfigModuleSettings } from './settings';

/** What other modules and the app use of the recording configurations; the rest stays inside the module. */
export { RecordingConfigService } from './service';

/** Map-link extraction, reverse geocoding and generated recording configurations, and their routes. */
export function createRecordingConfigsModule(deps: {
  config: ConfigModuleSettings;
  mosques: MosquesService;
  prayerTimes: PrayerTimesService;
  activity: ActivityService;
  log: FastifyBaseLogger;
}): ServerModule<RecordingConfigService> {
  const { config } = deps;
  const mapsLinks = new MapsLinkResolver({
    resolveOrigin: config.mapsLinkResolveOrigin,
    timeoutMs: config.mapsLinkTimeoutMs,
  });
  const configs = new RecordingConfigService(
    deps.mosques,
    deps.prayerTimes,
    mapsLinks,
    config,
    deps.activity,
    deps.log,
  );
  return { service: configs, register: (app) => registerConfigRoutes(app, { configs }) };
}
