import type { FastifyBaseLogger } from 'fastify';
import {
  extractRequestSchema,
  generateRequestSchema,
  type CoordinatesRecord,
  type ExtractionResult,
  type ExtractRequest,
  type GenerateRequest,
  type GenerateResult,
  type GeocodeResult,
  type Mosque,
} from '../../../contract/mosques';
import { mosquesNotFoundMessage, recordingConfigsFor, streamUrlFor } from '../../../contract/recording-configs';
import { reverseGeocode } from '../../geo/geocode';
import { MapsLinkError, type ExtractionBudget, type MapsLinkResolver } from '../../geo/maps-link';
import { timeZoneAt } from '../../geo/timezone';
import { notFound } from '../../lib/http-error';
import { mapLimited } from '../../lib/map-limited';
import type { MosquesService } from '../mosques';
import type { ActivityActor, ActivityService } from '../activity';
import type { PrayerTimesService } from '../prayer-times';
import type { ConfigModuleSettings } from './settings';

/** Links resolved at once in one extraction call. */
const EXTRACT_CONCURRENCY = 4;

interface ExtractJob {
  mosque_id: string | null;
  url: string;
}

/** Coordinates from map links, reverse geocoding, and recording configuration files (the Config Generator's calls). */
export class RecordingConfigService {
  constructor(
    private readonly mosques: MosquesService,
    private readonly prayerTimes: PrayerTimesService,
    private readonly resolver: MapsLinkResolver,
    private readonly settings: ConfigModuleSettings,
    private readonly activity: Pick<ActivityService, 'record'>,
    private readonly log?: FastifyBaseLogger,
  ) {}

  geocode(latitude: number, longitude: number): GeocodeResult {
    return reverseGeocode(latitude, longitude);
  }

  coordinates(): Promise<CoordinatesRecord[]> {
    return this.mosques.coordinates();
  }

  /** The stream URL of a mosque's ID_token: the token itself when it is a URL, else the template. */
  streamUrl(token: string): string {
    return streamUrlFor(token, this.settings.streamUrlTemplate);
  }

  /**
   * Resolves each link to coordinates and a time-zone guess. Coordinates are saved on an existing
   * mosque when it has none yet, or always with force_refresh. Ids without a link entry use the
   * mosque's saved link; a mosque that already has coordinates is answered from them unless
   * force_refresh. With neither links nor ids: every mosque with a link and (unless forced) no coordinates.
   */
  async extract(input: ExtractRequest): Promise<ExtractionResult[]> {
    const request = extractRequestSchema.parse(input);
    const answers: (ExtractionResult | ExtractJob)[] = request.urls.map((entry) => ({
      mosque_id: entry.mosque_id || null,
      url: entry.google_maps_url,
    }));
    const covered = new Set(request.urls.map((entry) => entry.mosque_id).filter(Boolean));
    const ids =
      request.mosque_ids.length === 0 && request.urls.length === 0
        ? null
        : request.mosque_ids.filter((id) => !covered.has(id));
    const known = new Map(
      (ids === null ? await this.mosques.list() : await this.mosques.listByIds(ids)).map((m) => [m.mosque_id, m]),
    );
    const pending =
      ids ??
      [...known.values()]
        .filter((m) => m.google_maps_url && (request.force_refresh || m.latitude === null))
        .map((m) => m.mosque_id);
    for (const id of pending) {
      const mosque = known.get(id);
      if (!mosque) answers.push(failure(id, null, `Mosque ${id} not found`));
      else if (!mosque.google_maps_url) answers.push(failure(id, null, `Mosque ${id} has no map link`));
      else if (!request.force_refresh && mosque.latitude !== null && mosque.longitude !== null)
        answers.push(this.saved(mosque));
      else answers.push({ mosque_id: id, url: mosque.google_maps_url });
    }

    const cache = new Map<string, Promise<ExtractionResult>>();
    const budget = this.resolver.newBudget();
    const resolveOnce = (job: ExtractJob) => {
      let found = cache.get(job.url);
      if (!found) {
        found = this.resolve(job.url, budget);
        cache.set(job.url, found);
      }
      return found;
    };
    return mapLimited(answers, EXTRACT_CONCURRENCY, async (answer) => {
      if (!('url' in answer)) return answer;
      const result = { ...(await resolveOnce(answer)), mosque_id: answer.mosque_id };
      if (result.success && answer.mosque_id)
        result.stored = await this.store(answer.mosque_id, result, request.force_refresh);
      return result;
    });
  }

  private saved(mosque: Mosque): ExtractionResult {
    return {
      mosque_id: mosque.mosque_id,
      google_maps_url: mosque.google_maps_url,
      success: true,
      latitude: mosque.latitude,
      longitude: mosque.longitude,
      timezone_guess:
        mosque.timezone ??
        (mosque.latitude !== null && mosque.longitude !== null ? timeZoneAt(mosque.latitude, mosque.longitude) : null),
      extraction_method: null,
      stored: false,
    };
  }

  private async resolve(url: string, budget: ExtractionBudget): Promise<ExtractionResult> {
    try {
      const found = await this.resolver.extract(url, budget);
      return {
        mosque_id: null,
        google_maps_url: url,
        success: true,
        latitude: found.latitude,
        longitude: found.longitude,
        timezone_guess: timeZoneAt(found.latitude, found.longitude),
        extraction_method: found.method,
        stored: false,
      };
    } catch (error) {
      if (!(error instanceof MapsLinkError)) this.log?.warn({ err: error }, 'map link extraction failed');
      return failure(
        null,
        url,
        error instanceof MapsLinkError ? error.message : 'Could not read coordinates from the map link',
      );
    }
  }

  private async store(mosqueId: string, result: ExtractionResult, force: boolean): Promise<boolean> {
    if (result.latitude === null || result.longitude === null || !result.extraction_method) return false;
    const mosque = await this.mosques.find(mosqueId);
    if (!mosque || (!force && mosque.latitude !== null)) return false;
    const saved = await this.mosques.setCoordinates(mosqueId, {
      latitude: result.latitude,
      longitude: result.longitude,
      timezone: result.timezone_guess,
      method: result.extraction_method,
    });
    return saved !== undefined;
  }

  /** Recording configurations for the chosen mosques; `actor` is who the activity log names (null: the system). */
  async generate(input: GenerateRequest, actor: ActivityActor | null = null): Promise<GenerateResult> {
    const request = generateRequestSchema.parse(input);
    const data = await this.build(request);
    await this.activity.record({
      actor,
      action: 'config.generate',
      detail: {
        total_configs: data.total_configs,
        mosque_ids: data.recordings.map((r) => r.mosque_id),
        method: request.method,
      },
    });
    return data;
  }

  private async build(request: ReturnType<typeof generateRequestSchema.parse>): Promise<GenerateResult> {
    const chosen = request.mosque_ids.length > 0;
    const selected = chosen
      ? await this.mosques.listByIds([...new Set(request.mosque_ids)])
      : await this.mosques.list();
    const missing = mosquesNotFoundMessage(request.mosque_ids, selected);
    if (missing) throw notFound(missing);
    return recordingConfigsFor(selected, request, {
      chosen,
      streamUrlTemplate: this.settings.streamUrlTemplate,
      nextFridayPrayer: (mosque) => this.prayerTimes.nextFridayPrayer(mosque),
    });
  }
}

function failure(mosqueId: string | null, url: string | null, error: string): ExtractionResult {
  return {
    mosque_id: mosqueId,
    google_maps_url: url,
    success: false,
    latitude: null,
    longitude: null,
    timezone_guess: null,
    extraction_method: null,
    stored: false,
    error,
  };
}
