import { endpointsOf } from '../endpoint';
import { activityRoutes, alarmRoutes } from './activity';
import { amiRoutes } from './ami';
import { authRoutes, userRoutes } from './auth';
import { configRoutes, mosqueRoutes } from './config';
import { githubRoutes } from './github';
import { instanceRoutes } from './instances';
import { monitoringRoutes } from './monitoring';
import { recordingRoutes } from './recordings';
import { schedulerRoutes } from './scheduler';

/**
 * The route table: every endpoint of the API, declared once. The server registers its routes from it,
 * the console's fetchers take paths and types from it, and the mocks are bound to it.
 */
export const routeTable = {
  auth: authRoutes,
  users: userRoutes,
  activity: activityRoutes,
  alarms: alarmRoutes,
  github: githubRoutes,
  monitoring: monitoringRoutes,
  ami: amiRoutes,
  config: configRoutes,
  instances: instanceRoutes,
  recordings: recordingRoutes,
  mosques: mosqueRoutes,
  scheduler: schedulerRoutes,
};

export const allEndpoints = endpointsOf(routeTable);
