import { userRoutes } from '../../../contract/routes/auth';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { ActivityService } from '../activity/service';
import { recordUserCreated, recordUserUpdated } from '../activity/user-activity';
import { toUser } from './repository';
import type { UsersService } from './service';

export function registerUserRoutes(app: AppInstance, users: UsersService, activity: ActivityService): void {
  handle(app, userRoutes.list, async () => ({ users: await users.list() }));

  handle(app, userRoutes.create, async (request) => {
    const user = await users.create(request.body);
    await recordUserCreated(activity, sessionOf(request).user, user);
    return { success: true as const, data: user };
  });

  handle(app, userRoutes.update, async (request) => {
    const { user, sessionId } = sessionOf(request);
    const before = toUser(await users.findRowById(request.params.id));
    const updated = await users.update(request.params.id, request.body, { userId: user.id, sessionId });
    await recordUserUpdated(activity, user, before, updated, request.body);
    return { success: true as const, data: updated };
  });
}
