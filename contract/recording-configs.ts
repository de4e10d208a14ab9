import type { GenerateResult, Mosque, PrayerTimeRecord, RecordingConfig } from './mosques';

/*
 * The Config Generator's rule (docs/reference.md section 3, Generate settings): which mosques get a recording
 * configuration and how each one reads. The server and the console's mocks both answer from it, so
 * they cannot drift apart; where prayer times come from is theirs to pass in.
 */

/** Where a mosque's ID_token goes when it is an id rather than a URL (the server's STREAM_URL_TEMPLATE default). */
export const DEFAULT_STREAM_URL_TEMPLATE = 'https://www.youtube.com/channel/{id}/live';
const STREAM_URL = /^(https?|rtmps?|rtsp|srt):\/\//i;
/** Most unknown ids a not-found answer names: a long list helps nobody read it. */
const MISSING_IDS_SHOWN = 10;

/** The stream URL of a mosque's ID_token: the token itself when it is a URL, else the template with the token as `{id}`. */
export function streamUrlFor(token: string, template: string): string {
  const trimmed = token.trim();
  return STREAM_URL.test(trimmed) ? trimmed : template.replaceAll('{id}', encodeURIComponent(trimmed));
}

/** The 404 sentence for chosen ids that name no mosque, or null when every one was found. */
export function mosquesNotFoundMessage(
  chosenIds: readonly string[],
  found: readonly Pick<Mosque, 'mosque_id'>[],
): string | null {
  const known = new Set(found.map((mosque) => mosque.mosque_id));
  const missing = [...new Set(chosenIds)].filter((id) => !known.has(id));
  if (missing.length === 0) return null;
  return `Mosque${missing.length > 1 ? 's' : ''} not found: ${missing.slice(0, MISSING_IDS_SHOWN).join(', ')}`;
}

/** The launch settings every configuration of one file shares (the generate request without its selection). */
export type RecordingSettings = Pick<RecordingConfig, 'duration' | 'width' | 'height' | 'method' | 'api_base_url'>;

export interface RecordingConfigSources {
  /** Whether the operator chose the mosques: then an inactive one is reported as skipped, otherwise silently left out. */
  chosen: boolean;
  streamUrlTemplate: string;
  nextFridayPrayer: (mosque: Mosque) => Pick<PrayerTimeRecord, 'friday_prayer' | 'recording_start' | 'timezone'> | null;
}

/** One launch configuration per active mosque with a stream identifier, and why each other one got none. */
export function recordingConfigsFor(
  mosques: readonly Mosque[],
  settings: RecordingSettings,
  sources: RecordingConfigSources,
): GenerateResult {
  const recordings: RecordingConfig[] = [];
  const skipped: GenerateResult['skipped'] = [];
  for (const mosque of mosques) {
    if (!mosque.active) {
      if (sources.chosen) skipped.push({ mosque_id: mosque.mosque_id, reason: 'Mosque is disabled' });
      continue;
    }
    if (!mosque.ID_token) {
      skipped.push({ mosque_id: mosque.mosque_id, reason: 'Mosque has no stream identifier (ID_token)' });
      continue;
    }
    const prayer = sources.nextFridayPrayer(mosque);
    recordings.push({
      url: streamUrlFor(mosque.ID_token, sources.streamUrlTemplate),
      duration: settings.duration,
      width: settings.width,
      height: settings.height,
      method: settings.method,
      ...(settings.method === 'api' && settings.api_base_url ? { api_base_url: settings.api_base_url } : {}),
      mosque_id: mosque.mosque_id,
      mosque_name: mosque.name,
      friday_prayer: prayer?.friday_prayer ?? null,
      recording_start: prayer?.recording_start ?? null,
      timezone: prayer?.timezone ?? mosque.timezone,
    });
  }
  return { total_configs: recordings.length, recordings, skipped };
}
