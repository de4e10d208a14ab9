import path from 'node:path';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { resolveFfmpeg, resolveFfprobe } from '../../capture/ffmpeg-path';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { AppInstance } from '../../lib/fastify';
import type { SecretKeys } from '../../lib/secret-key';
import type { RecordingStore } from '../../storage';
import type { ActivityService } from '../activity';
import type { SessionService } from '../auth';
import type { ServerModule } from '../../lib/server-module';
import { AudioRenditions } from './audio-rendition';
import { registerInternalRecordingRoutes } from './internal-recording-routes';
import { RecordingsLibrary, type RecordingsElsewhere } from './library';
import { RecordingsLibraryRepository } from './library-repository';
import { registerLibraryRoutes } from './library-routes';
import { MediaLinks } from './media-links';

const DAY_MS = 86_400_000;
/** Audio-only files encoded at once (at AUDIO_NICENESS: a Friday's live recorders come first; decision 025). */
const AUDIO_ENCODES = 1;

export interface LibraryModuleDeps {
  config: Pick<Config, 'retentionDays' | 'dataDir' | 'ffmpegPath' | 'ffprobePath' | 'audioNiceness'>;
  db: Db;
  clock: Clock;
  keys: SecretKeys;
  activity: ActivityService;
  log: FastifyBaseLogger;
  /** The store RECORDINGS_STORE names (app.ts makes the one the recorders deliver to). */
  store: RecordingStore;
  /** Whether a session is still live (signed media links end with theirs). */
  sessions: Pick<SessionService, 'isSessionLive'>;
  /** The media other servers hold (the servers module; absent with one server). */
  recordingsElsewhere?: RecordingsElsewhere;
  /** The servers module's signed calls: they guard the routes other servers call for the media held here. */
  calls: { guard: (request: FastifyRequest) => Promise<void> };
}

/** The recordings library over the configured store, its routes, the other servers' media route, and the daily retention pass. */
export function createRecordingsModule(deps: LibraryModuleDeps): ServerModule<RecordingsLibrary> {
  const { store } = deps;
  const audio = audioRenditions(deps);
  const library = new RecordingsLibrary({
    repository: new RecordingsLibraryRepository(deps.db.kysely),
    store,
    links: new MediaLinks(deps.keys.derive('media-links')),
    sessionLive: (id) => deps.sessions.isSessionLive(id),
    clock: deps.clock,
    activity: deps.activity,
    retentionDays: deps.config.retentionDays ?? null,
    elsewhere: deps.recordingsElsewhere,
    audio,
  });
  const register = (app: AppInstance) => {
    registerLibraryRoutes(app, library, store);
    registerInternalRecordingRoutes(app, { guard: deps.calls.guard, library, store });
  };
  if (deps.config.retentionDays === undefined) return { service: library, register, close: () => audio.close() };

  const run = () =>
    library.applyRetention().then(
      (removed) => removed > 0 && deps.log.info({ removed }, 'retention removed old recordings'),
      (error: unknown) => deps.log.error({ err: error }, 'retention pass failed'),
    );
  let timer: NodeJS.Timeout | undefined;
  return {
    service: library,
    register,
    start() {
      void run();
      timer = setInterval(() => void run(), DAY_MS);
      timer.unref();
    },
    close() {
      clearInterval(timer);
      audio.close();
    },
  };
}

/** The audio-only files, encoded by the ffmpeg the recorders use (a missing one fails each encode, saying so). */
function audioRenditions(deps: LibraryModuleDeps): AudioRenditions {
  const ffmpegPath = resolveFfmpeg(deps.config.ffmpegPath)?.path ?? 'ffmpeg';
  return new AudioRenditions({
    store: deps.store,
    encode: {
      ffmpegPath,
      ffprobePath: resolveFfprobe(ffmpegPath, deps.config.ffprobePath) ?? 'ffprobe',
      niceness: deps.config.audioNiceness,
    },
    workDir: path.join(deps.config.dataDir, 'audio-renditions'),
    clock: deps.clock,
    log: deps.log,
    concurrency: AUDIO_ENCODES,
  });
}
