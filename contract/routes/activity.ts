import { activityListQuerySchema, activityListResponseSchema } from '../activity';
import { endpoint } from '../endpoint';

/** The activity log, newest first (a plain user's view leaves out other accounts' details). */
export const activityRoutes = {
  list: endpoint({
    method: 'GET',
    path: '/api/activity',
    access: 'session',
    query: activityListQuerySchema,
    response: activityListResponseSchema,
  }),
};
