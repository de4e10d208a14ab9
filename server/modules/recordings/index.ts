import path from 'node:path';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { AlarmsService } from '../alarms/service';
import { RecordingAlarms } from './alarms';
import { RecordingsRepository } from './repository';
import { RecordingsService } from './service';

export { RecordingsService } from './service';
export { registerRecordingRoutes } from './routes';

/** The recordings service on its own table, with its troubles raised as alarms when the alarms module is there. */
export function createRecordingsService(deps: {
  db: Db;
  clock: Clock;
  dataDir: string;
  alarms?: AlarmsService;
  /** A mosque's name for alarm messages. */
  mosqueName?: (mosqueId: string) => Promise<string | null>;
}): RecordingsService {
  const alarms = deps.alarms ? new RecordingAlarms(deps.alarms, deps.clock, deps.mosqueName) : undefined;
  return new RecordingsService(new RecordingsRepository(deps.db.kysely), deps.clock, path.join(deps.dataDir, 'recordings'), alarms);
}
