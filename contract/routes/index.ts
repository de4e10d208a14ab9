import { endpointsOf } from '../endpoint';
import { activityRoutes } from './activity';
import { alarmRoutes } from './alarms';
import { amiRoutes } from './ami';
import { authRoutes } from './auth';
import { configRoutes, mosqueRoutes } from './mosques';
import { githubRoutes } from './github';
import { instanceRoutes } from './instances';
import { monitoringRoutes } from './monitoring';
import { recordingRoutes } from './recordings';
import { schedulerRoutes } from './scheduler';
import { userRoutes } from './users';

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
