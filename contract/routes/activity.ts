import { activityListQuerySchema, activityListResponseSchema } from '../activity';
import { acknowledgeAlarmResponseSchema, alarmIdParamsSchema, alarmsQuerySchema, alarmsResponseSchema } from '../alarms';
import { endpoint } from '../endpoint';

/** The activity log, newest first (a plain user's view leaves out other accounts' details). */
export const activityRoutes = {
  list: endpoint({ method: 'GET', path: '/api/activity', access: 'session', query: activityListQuerySchema, response: activityListResponseSchema }),
};

/** Alarms: any signed-in operator lists and acknowledges them. */
export const alarmRoutes = {
  list: endpoint({ method: 'GET', path: '/api/alarms', access: 'session', query: alarmsQuerySchema, response: alarmsResponseSchema }),
  acknowledge: endpoint({
    method: 'POST',
    path: '/api/alarms/:id/acknowledge',
    access: 'session',
    params: alarmIdParamsSchema,
    response: acknowledgeAlarmResponseSchema,
  }),
};
