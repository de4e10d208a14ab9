import type { LoginResponse } from '../../../contract/auth';
import type { Clock } from '../../lib/clock';
import { HttpError, badRequest, tooManyRequests } from '../../lib/http-error';
import { fromFlag } from '../../db';
import { toUser } from '../users/repository';
import type { UsersService } from '../users/service';
import { FailureLimiter } from './login-limiter';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import type { AuthenticatedSession, SessionService } from './session-service';

export const LOGIN_FAILED_MESSAGE = 'Incorrect username or password';
const LIMIT_WINDOW_MS = 5 * 60 * 1000;

export class AuthService {
  private readonly perUsername: FailureLimiter;
  private readonly perAddress: FailureLimiter;

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    clock: Clock,
  ) {
    this.perUsername = new FailureLimiter({ maxFailures: 5, windowMs: LIMIT_WINDOW_MS }, clock);
    this.perAddress = new FailureLimiter({ maxFailures: 20, windowMs: LIMIT_WINDOW_MS }, clock);
  }

  async login(username: string, password: string, meta: { ip: string; userAgent?: string }): Promise<LoginResponse> {
    const usernameKey = username.toLowerCase();
    const waitMs = Math.max(this.perUsername.blockedFor(usernameKey), this.perAddress.blockedFor(meta.ip));
    if (waitMs > 0) {
      const minutes = Math.ceil(waitMs / 60000);
      throw tooManyRequests(
        `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        Math.ceil(waitMs / 1000),
      );
    }
    const row = await this.users.findRowByUsername(username);
    const passwordOk = row ? await verifyPassword(row.password_hash, password) : (await verifyAgainstDummy(password), false);
    // A deactivated account gets the same answer as a wrong password: nothing to learn from it.
    if (!row || !passwordOk || !fromFlag(row.is_active)) {
      this.perUsername.recordFailure(usernameKey);
      this.perAddress.recordFailure(meta.ip);
      throw new HttpError(401, LOGIN_FAILED_MESSAGE);
    }
    this.perUsername.reset(usernameKey);
    const { token } = await this.sessions.open(row, meta);
    const updated = await this.users.recordLogin(row.id);
    return { access_token: token, token_type: 'bearer', user: toUser(updated) };
  }

  logout(session: AuthenticatedSession): Promise<void> {
    return this.sessions.revoke(session.sessionId, 'logout');
  }

  /** Changes the caller's password and signs out every other session of theirs. */
  async changePassword(session: AuthenticatedSession, currentPassword: string, newPassword: string): Promise<void> {
    if (!(await verifyPassword(session.user.password_hash, currentPassword))) throw badRequest('Current password is incorrect');
    if (currentPassword === newPassword) throw badRequest('New password must be different from current password');
    await this.users.setPassword(session.user.id, newPassword);
    await this.sessions.revokeAllForUser(session.user.id, 'password changed', session.sessionId);
  }
}
