import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { AppInstance } from '../../lib/fastify';
import type { SecretKeys } from '../../lib/secret-key';
import type { RecordingStore } from '../../storage';
import type { ActivityService } from '../activity';
import { RecordingsLibrary } from './library';
import { RecordingsLibraryRepository } from './library-repository';
import { registerLibraryRoutes } from './library-routes';
import { MediaLinks } from './media-links';

const DAY_MS = 86_400_000;

export interface LibraryModuleDeps {
  config: Config;
  db: Db;
  clock: Clock;
  keys: SecretKeys;
  activity: ActivityService;
  log: FastifyBaseLogger;
  /** The store RECORDINGS_STORE names (app.ts makes the one the recorders deliver to). */
  store: RecordingStore;
  /** Whether a session is still live (signed media links end with theirs). */
  sessionLive: (sessionId: string) => Promise<boolean>;
}

/** The recordings library over the configured store, its routes, and the daily retention pass. */
export function registerRecordingsLibrary(app: AppInstance, deps: LibraryModuleDeps): RecordingsLibrary {
  const { store } = deps;
  const library = new RecordingsLibrary({
    repository: new RecordingsLibraryRepository(deps.db.kysely),
    store,
    links: new MediaLinks(deps.keys.derive('media-links')),
    sessionLive: deps.sessionLive,
    clock: deps.clock,
    activity: deps.activity,
    retentionDays: deps.config.retentionDays ?? null,
  });
  registerLibraryRoutes(app, library, store);

  if (deps.config.retentionDays !== undefined) {
    const run = () =>
      library.applyRetention().then(
        (removed) => removed > 0 && deps.log.info({ removed }, 'retention removed old recordings'),
        (error: unknown) => deps.log.error({ err: error }, 'retention pass failed'),
      );
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      void run();
      timer = setInterval(() => void run(), DAY_MS);
      timer.unref();
    });
    app.addHook('preClose', async () => clearInterval(timer));
  }
  return library;
}
