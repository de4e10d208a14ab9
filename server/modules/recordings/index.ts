import path from 'node:path';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { EventBus } from '../../lib/events';
import type { FastifyBaseLogger } from 'fastify';
import type { RecordingStore } from '../../storage';
import type { AlarmsService } from '../alarms';
import { createContentModule } from '../content';
import { RecordingAlarms } from './alarms';
import { RecordingsRepository } from './repository';
import { RecordingsService } from './service';
import { StoreJoins } from './store-join';
import { DEFAULT_CONTENT_ALARM_SECONDS } from '../../../recorder/protocol';

export { RecordingsService } from './service';
export { registerRecordingRoutes } from './routes';
export { StoreJoins } from './store-join';
export { LateResults } from './late-results';
export type { RecordingsElsewhere, RecordingsLibrary } from './library';
export { createRecordingsModule } from './library-module';
export { parseRuns, type Window } from './runs';
export { parseResumePoint } from './repository';

interface RecordingsDeps {
  db: Db;
  clock: Clock;
  dataDir: string;
  alarms?: AlarmsService;
  /** A mosque's name for alarm messages. */
  mosqueName?: (mosqueId: string) => Promise<string | null>;
  /** Where revised outcomes are told (`recording_revised`). */
  events?: Pick<EventBus, 'emit'>;
  /** CONTENT_ALARM_SECONDS; default 120. */
  contentAlarmSeconds?: number;
}

function recordingAlarms(deps: RecordingsDeps): RecordingAlarms | undefined {
  if (!deps.alarms) return undefined;
  const content = createContentModule({
    alarms: deps.alarms,
    thresholdSeconds: deps.contentAlarmSeconds ?? DEFAULT_CONTENT_ALARM_SECONDS,
  });
  return new RecordingAlarms(deps.alarms, deps.clock, deps.mosqueName, content.service);
}

/** The recordings service on its own table, with its troubles raised as alarms when the alarms module is there. */
export function createRecordingsService(deps: RecordingsDeps): RecordingsService {
  return new RecordingsService(
    new RecordingsRepository(deps.db.kysely),
    deps.clock,
    path.join(deps.dataDir, 'recordings'),
    recordingAlarms(deps),
    deps.events,
  );
}

/** The server's join of every run's pieces of a recording in a bucket (store-join.ts). */
export function createStoreJoins(
  deps: RecordingsDeps & {
    store: RecordingStore;
    log: FastifyBaseLogger;
    ffmpegPath: string;
    ffprobePath: string;
    onJoined: (instanceId: string) => void;
  },
): StoreJoins {
  const { store, clock, log, ffmpegPath, ffprobePath, onJoined } = deps;
  const workDir = path.join(deps.dataDir, 'store-joins');
  return new StoreJoins({
    repository: new RecordingsRepository(deps.db.kysely),
    store,
    alarms: recordingAlarms(deps),
    clock,
    log,
    ffmpegPath,
    ffprobePath,
    workDir,
    onJoined,
  });
}
