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
export const ACCOUNT_DEACTIVATED_MESSAGE = 'This account is deactivated. Ask an administrator to activate it again.';
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
    this.refuseWhileBlocked('sign-in attempts', this.perUsername.blockedFor(usernameKey), this.perAddress.blockedFor(meta.ip));
    // Counted before the (slow) check, so simultaneous guesses cannot all pass the limit.
    const takeBackUsername = this.perUsername.recordFailure(usernameKey);
    const takeBackAddress = this.perAddress.recordFailure(meta.ip);
    let row: Awaited<ReturnType<UsersService['findRowByUsername']>>;
    let passwordOk: boolean;
    try {
      row = await this.users.findRowByUsername(username);
      passwordOk = row ? await verifyPassword(row.password_hash, password) : (await verifyAgainstDummy(password), false);
    } catch (error) {
      // The database failed, not the caller: this attempt does not count against them.
      takeBackUsername();
      takeBackAddress();
      throw error;
    }
    if (!row || !passwordOk) throw new HttpError(401, LOGIN_FAILED_MESSAGE);
    // Only someone who knows the password learns that the account is deactivated (and whom to ask); a guesser
    // cannot tell a deactivated account from a wrong password.
    if (!fromFlag(row.is_active)) throw new HttpError(403, ACCOUNT_DEACTIVATED_MESSAGE);
    this.perUsername.reset(usernameKey);
    takeBackAddress();
    const { token } = await this.sessions.open(row, meta);
    const updated = await this.users.recordLogin(row.id);
    return { access_token: token, token_type: 'bearer', user: toUser(updated) };
  }

  private refuseWhileBlocked(what: string, ...waits: number[]): void {
    const waitMs = Math.max(...waits);
    if (waitMs <= 0) return;
    const minutes = Math.ceil(waitMs / 60000);
    throw tooManyRequests(
      `Too many failed ${what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      Math.ceil(waitMs / 1000),
    );
  }

  logout(session: AuthenticatedSession): Promise<void> {
    return this.sessions.revoke(session.sessionId, 'logout');
  }

  /** Changes the caller's password and signs out every other session of theirs. */
  async changePassword(session: AuthenticatedSession, currentPassword: string, newPassword: string): Promise<void> {
    // A stolen token must not become a way around the sign-in limit to guess the password.
    const usernameKey = session.user.username.toLowerCase();
    this.refuseWhileBlocked('password attempts', this.perUsername.blockedFor(usernameKey));
    const takeBack = this.perUsername.recordFailure(usernameKey);
    if (!(await verifyPassword(session.user.password_hash, currentPassword))) throw badRequest('Current password is incorrect');
    takeBack();
    if (currentPassword === newPassword) throw badRequest('New password must be different from current password');
    await this.users.setPassword(session.user.id, newPassword);
    await this.sessions.revokeAllForUser(session.user.id, 'password changed', session.sessionId);
  }
}
