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
    async (request, reply) => reply.code(201).send({ success: true as const, data: await users.create(request.body) }),
  );

  app.put(
    '/api/auth/users/:id',
    {
      config: { access: 'superuser' },
      schema: { params: userIdParamsSchema, body: userUpdateRequestSchema, response: { 200: userResponseSchema } },
    },
    async (request) => ({
      success: true as const,
      data: await users.update(request.params.id, request.body, sessionOf(request).user.id),
    }),
  );
}
