import {
  userCreateRequestSchema,
  userIdParamsSchema,
  userResponseSchema,
  usersListResponseSchema,
  userUpdateRequestSchema,
} from '../auth';
import { endpoint } from '../endpoint';
import { usersListQuerySchema } from '../user-list';

/** Accounts, managed by superusers. */
export const userRoutes = {
  list: endpoint({
    method: 'GET',
    path: '/api/auth/users',
    access: 'superuser',
    query: usersListQuerySchema,
    response: usersListResponseSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/auth/users',
    access: 'superuser',
    body: userCreateRequestSchema,
    response: userResponseSchema,
    status: 201,
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/auth/users/:id',
    access: 'superuser',
    params: userIdParamsSchema,
    body: userUpdateRequestSchema,
    response: userResponseSchema,
  }),
};
