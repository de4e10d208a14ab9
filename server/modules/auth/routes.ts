import {
  changePasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  userCreateRequestSchema,
  userResponseSchema,
  verifyTokenResponseSchema,
} from '../../../contract/auth';
import { messageBodySchema } from '../../../contract/common';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { toUser } from '../users/repository';
import type { UsersService } from '../users/service';
import type { AuthService } from './auth-service';

export function registerAuthRoutes(app: AppInstance, deps: { auth: AuthService; users: UsersService }): void {
  const { auth, users } = deps;

  app.post(
    '/api/auth/login',
    { config: { access: 'public' }, schema: { body: loginRequestSchema, response: { 200: loginResponseSchema } } },
    async (request) =>
      auth.login(request.body.username, request.body.password, { ip: request.ip, userAgent: request.headers['user-agent'] }),
  );

  app.get(
    '/api/auth/verify-token',
    { config: { access: 'session' }, schema: { response: { 200: verifyTokenResponseSchema } } },
    async (request) => ({ valid: true as const, user: toUser(sessionOf(request).user) }),
  );

  app.post('/api/auth/logout', { config: { access: 'session' }, schema: { response: { 200: messageBodySchema } } }, async (request) => {
    await auth.logout(sessionOf(request));
    return { success: true as const, message: 'Signed out' };
  });

  app.post(
    '/api/auth/change-password',
    { config: { access: 'session' }, schema: { body: changePasswordRequestSchema, response: { 200: messageBodySchema } } },
    async (request) => {
      await auth.changePassword(sessionOf(request), request.body.current_password, request.body.new_password);
      return { success: true as const, message: 'Password changed successfully' };
    },
  );

  app.post(
    '/api/auth/register',
    { config: { access: 'superuser' }, schema: { body: userCreateRequestSchema, response: { 201: userResponseSchema } } },
    async (request, reply) => reply.code(201).send({ success: true as const, data: await users.create(request.body) }),
  );
}
