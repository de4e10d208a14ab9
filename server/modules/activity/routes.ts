import { activityRoutes } from '../../../contract/routes/activity';
import { fromFlag } from '../../db';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { ActivityService } from './service';

export function registerActivityRoutes(app: AppInstance, activity: ActivityService): void {
  handle(app, activityRoutes.list, async (request) => ({
    success: true as const,
    data: {
      entries: await activity.latest(request.query.limit, request.query.before, {
        superuser: fromFlag(sessionOf(request).user.is_superuser),
      }),
    },
  }));
}
