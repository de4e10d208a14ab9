import fs from 'node:fs';
import path from 'node:path';
import { INITIAL_PASSWORD_FILE } from '../../../contract/auth';
import { authRoutes } from '../../../contract/routes/auth';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import { HttpError } from '../../lib/http-error';
import type { ActivityService } from '../activity/service';
import { recordFailedLogin, recordSelfAction, recordUserCreated } from '../activity/user-activity';
import { toUser } from '../users/repository';
import type { UsersService } from '../users/service';
import type { AuthService } from './auth-service';

export function registerAuthRoutes(
  app: AppInstance,
  deps: { auth: AuthService; users: UsersService; activity: ActivityService; dataDir: string },
): void {
  const { auth, users, activity } = deps;

  // The login page says where the first-run password is for as long as its file exists: a yes or no, never the password.
  handle(app, authRoutes.firstRun, () => ({
    success: true as const,
    data: { initial_password_file: fs.existsSync(path.join(deps.dataDir, INITIAL_PASSWORD_FILE)) },
  }));

  handle(app, authRoutes.login, async (request) => {
    try {
      const result = await auth.login(request.body.username, request.body.password, { ip: request.ip, userAgent: request.headers['user-agent'] });
      await recordSelfAction(activity, result.user, 'auth.login', { ip: request.ip });
      return result;
    } catch (error) {
      // Wrong credentials are logged (rate-limited attempts are not, so a flood cannot fill the log).
      if (error instanceof HttpError && (error.statusCode === 401 || error.statusCode === 403)) {
        const known = await users.findRowByUsername(request.body.username).catch(() => undefined);
        await recordFailedLogin(activity, known, request.ip);
      }
      throw error;
    }
  });

  handle(app, authRoutes.verifyToken, (request) => ({ valid: true as const, user: toUser(sessionOf(request).user) }));

  handle(app, authRoutes.logout, async (request) => {
    await auth.logout(sessionOf(request));
    await recordSelfAction(activity, sessionOf(request).user, 'auth.logout');
    return { success: true as const, message: 'Signed out' };
  });

  handle(app, authRoutes.changePassword, async (request) => {
    await auth.changePassword(sessionOf(request), request.body.current_password, request.body.new_password);
    await recordSelfAction(activity, sessionOf(request).user, 'auth.password_change');
    return { success: true as const, message: 'Password changed successfully' };
  });

  handle(app, authRoutes.register, async (request) => {
    const user = await users.create(request.body);
    await recordUserCreated(activity, sessionOf(request).user, user);
    return { success: true as const, data: user };
  });
}
