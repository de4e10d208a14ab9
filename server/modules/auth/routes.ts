import fs from 'node:fs';
import path from 'node:path';
import {
  changePasswordRequestSchema,
  firstRunResponseSchema,
  INITIAL_PASSWORD_FILE,
  loginRequestSchema,
  loginResponseSchema,
  userCreateRequestSchema,
  userResponseSchema,
  verifyTokenResponseSchema,
} from '../../../contract/auth';
import { messageBodySchema } from '../../../contract/common';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { toUser } from '../users/user';
import type { UsersService } from '../users/service';
import type { AuthService } from './auth-service';

export function registerAuthRoutes(
  app: AppInstance,
  deps: { auth: AuthService; users: UsersService; dataDir: string },
): void {
  const { auth, users } = deps;

  // The login page says where the first-run password is for as long as its file exists: a yes or no, never the password.
  app.get('/api/auth/first-run', { config: { access: 'public' }, schema: { response: { 200: firstRunResponseSchema } } }, async () => ({
    success: true as const,
    data: { initial_password_file: fs.existsSync(path.join(deps.dataDir, INITIAL_PASSWORD_FILE)) },
  }));

  app.post(
    '/api/auth/login',
    { config: { access: 'public' }, schema: { body: loginRequestSchema, response: { 200: loginResponseSchema } } },
    async (request) => {
      return auth.login(request.body.username, request.body.password, { ip: request.ip, userAgent: request.headers['user-agent'] });
    },
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
    async (request, reply) => {
      const user = await users.create(request.body, sessionOf(request).user);
      return reply.code(201).send({ success: true as const, data: user });
    },
  );
}
