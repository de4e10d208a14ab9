import { usersPageOf } from '../../../contract/user-list';
import { userRoutes } from '../../../contract/routes/users';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { UsersService } from './service';

export function registerUserRoutes(app: AppInstance, users: UsersService): void {
  handle(app, userRoutes.list, async (request) => usersPageOf(await users.list(), request.query));

  handle(app, userRoutes.create, async (request) => {
    const user = await users.create(request.body, sessionOf(request).user);
    return { success: true as const, data: user };
  });

  handle(app, userRoutes.update, async (request) => {
    const updated = await users.update(request.params.id, request.body, sessionOf(request));
    return { success: true as const, data: updated };
  });
}
