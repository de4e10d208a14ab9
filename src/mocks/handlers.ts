import { activityHandlers } from './handlers/activity';
import { alarmHandlers } from './handlers/alarms';
import { amiHandlers } from './handlers/ami';
import { authHandlers } from './handlers/auth';
import { configHandlers } from './handlers/config';
import { fridaysHandlers } from './handlers/fridays';
import { githubHandlers } from './handlers/github';
import { instanceHandlers } from './handlers/instances';
import { liveHandlers } from './handlers/live';
import { monitoringHandlers } from './handlers/monitoring';
import { recordingHandlers } from './handlers/recordings';
import { schedulerHandlers } from './handlers/scheduler';
import { streamTestHandlers } from './handlers/stream-tests';
import { userHandlers } from './handlers/users';

/** Every mock, per resource. Add a resource's handlers here (one line each). */
export const handlers = [
  ...authHandlers,
  ...userHandlers,
  ...liveHandlers,
  ...instanceHandlers,
  ...streamTestHandlers,
  ...amiHandlers,
  ...configHandlers,
  ...monitoringHandlers,
  ...githubHandlers,
  ...activityHandlers,
  ...schedulerHandlers,
  ...fridaysHandlers,
  ...recordingHandlers,
  ...alarmHandlers,
];
