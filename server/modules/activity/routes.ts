import { activityListQuerySchema, activityListResponseSchema } from '../../../contract/activity';
import { fromFlag } from '../../db';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import type { ActivityService } from './service';

export function registerActivityRoutes(app: AppInstance, activity: ActivityService): void {
  app.get(
    '/api/activity',
    { config: { access: 'session' }, schema: { querystring: activityListQuerySchema, response: { 200: activityListResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: { entries: await activity.latest(request.query.limit, request.query.before, { superuser: fromFlag(sessionOf(request).user.is_superuser) }) },
    }),
  );
}
