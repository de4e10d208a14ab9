import fs from 'node:fs';
import path from 'node:path';
import { INITIAL_PASSWORD_FILE } from '../../../contract/auth';
import { authRoutes } from '../../../contract/routes/auth';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import { toUser } from '../users';
import type { UsersService } from '../users';
import type { AuthService } from './auth-service';

export function registerAuthRoutes(
  app: AppInstance,
  deps: { auth: AuthService; users: UsersService; dataDir: string },
): void {
  const { auth, users } = deps;

  // The login page says where the first-run password is for as long as its file exists: a yes or no, never the password.
  handle(app, authRoutes.firstRun, () => ({
    success: true as const,
    data: { initial_password_file: fs.existsSync(path.join(deps.dataDir, INITIAL_PASSWORD_FILE)) },
  }));

  handle(app, authRoutes.login, (request) =>
    auth.login(request.body.username, request.body.password, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    }),
  );

  handle(app, authRoutes.verifyToken, (request) => ({ valid: true as const, user: toUser(sessionOf(request).user) }));

  handle(app, authRoutes.logout, async (request) => {
    await auth.logout(sessionOf(request));
    return { success: true as const, message: 'Signed out' };
  });

  handle(app, authRoutes.changePassword, async (request) => {
    await auth.changePassword(sessionOf(request), request.body.current_password, request.body.new_password);
    return { success: true as const, message: 'Password changed successfully' };
  });

  handle(app, authRoutes.register, async (request) => {
    const user = await users.create(request.body, sessionOf(request).user);
    return { success: true as const, data: user };
  });
}
