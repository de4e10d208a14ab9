import {
  userCreateRequestSchema,
  userIdParamsSchema,
  userResponseSchema,
  usersListResponseSchema,
  userUpdateRequestSchema,
} from '../../../contract/auth';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import type { UsersService } from './service';

export function registerUserRoutes(app: AppInstance, users: UsersService): void {
  app.get(
    '/api/auth/users',
    { config: { access: 'superuser' }, schema: { response: { 200: usersListResponseSchema } } },
    async () => ({ users: await users.list() }),
  );

  app.post(
    '/api/auth/users',
    { config: { access: 'superuser' }, schema: { body: userCreateRequestSchema, response: { 201: userResponseSchema } } },
    async (request, reply) => {
      const user = await users.create(request.body, sessionOf(request).user);
      return reply.code(201).send({ success: true as const, data: user });
    },
  );

  app.put(
    '/api/auth/users/:id',
    {
      config: { access: 'superuser' },
      schema: { params: userIdParamsSchema, body: userUpdateRequestSchema, response: { 200: userResponseSchema } },
    },
    async (request) => {
      const updated = await users.update(request.params.id, request.body, sessionOf(request));
      return { success: true as const, data: updated };
    },
  );
}
