import { endpointsOf } from '../endpoint';
import { activityRoutes, alarmRoutes } from './activity';
import { authRoutes, userRoutes } from './auth';
import { githubRoutes } from './github';

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
};

export const allEndpoints = endpointsOf(routeTable);
