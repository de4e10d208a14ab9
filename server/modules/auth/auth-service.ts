import type { LoginResponse } from '../../../contract/auth';
import type { Clock } from '../../lib/clock';
import { HttpError, badRequest, tooManyRequests } from '../../lib/http-error';
import { fromFlag } from '../../db';
import { toUser } from '../users/user';
import type { ActivityService } from '../activity/service';
import { recordFailedLogin, recordSelfAction } from '../activity/user-activity';
import type { UsersService } from '../users/service';
import { usernameKey } from '../users/username-key';
import { FailureLimiter } from './login-limiter';
import { verifyAgainstDummy, verifyPassword } from '../../lib/passwords';
import type { AuthenticatedSession } from '../../lib/fastify';
import type { SessionService } from './session-service';

export const LOGIN_FAILED_MESSAGE = 'Incorrect username or password';
export const ACCOUNT_DEACTIVATED_MESSAGE = 'This account is deactivated. Ask an administrator to activate it again.';
const LIMIT_WINDOW_MS = 5 * 60 * 1000;

export class AuthService {
  /**
   * Sign-in failures per (username, address) and per address: guesses from one address lock only that
   * address out, so nobody can lock an account (the superuser's included) from elsewhere without its
   * password. Behind a reverse proxy the address is the client's only with TRUST_PROXY set.
   */
  private readonly perUserAndAddress: FailureLimiter;
  private readonly perAddress: FailureLimiter;
  /** Wrong current passwords per account: a stolen token must not be a way to guess the password. */
  private readonly passwordChecks: FailureLimiter;

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    clock: Clock,
    private readonly activity: ActivityService,
  ) {
    this.perUserAndAddress = new FailureLimiter({ maxFailures: 5, windowMs: LIMIT_WINDOW_MS }, clock);
    this.perAddress = new FailureLimiter({ maxFailures: 20, windowMs: LIMIT_WINDOW_MS }, clock);
    this.passwordChecks = new FailureLimiter({ maxFailures: 5, windowMs: LIMIT_WINDOW_MS }, clock);
  }

  async login(username: string, password: string, meta: { ip: string; userAgent?: string }): Promise<LoginResponse> {
    const pairKey = `${meta.ip} ${usernameKey(username)}`;
    this.refuseWhileBlocked('sign-in attempts', this.perUserAndAddress.blockedFor(pairKey), this.perAddress.blockedFor(meta.ip));
    // Counted before the (slow) check, so simultaneous guesses cannot all pass the limit.
    const takeBackUsername = this.perUserAndAddress.recordFailure(pairKey);
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
    // Wrong credentials are logged (rate-limited attempts are not, so a flood cannot fill the log).
    if (!row || !passwordOk) {
      await recordFailedLogin(this.activity, row, meta.ip);
      throw new HttpError(401, LOGIN_FAILED_MESSAGE);
    }
    // Only someone who knows the password learns that the account is deactivated (and whom to ask); a guesser
    // cannot tell a deactivated account from a wrong password.
    if (!fromFlag(row.is_active)) {
      await recordFailedLogin(this.activity, row, meta.ip);
      throw new HttpError(403, ACCOUNT_DEACTIVATED_MESSAGE);
    }
    this.perUserAndAddress.reset(pairKey);
    takeBackAddress();
    const { token } = await this.sessions.open(row, meta);
    const user = toUser(await this.users.recordLogin(row.id));
    await recordSelfAction(this.activity, user, 'auth.login', { ip: meta.ip });
    return { access_token: token, token_type: 'bearer', user };
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

  async logout(session: AuthenticatedSession): Promise<void> {
    await this.sessions.revoke(session.sessionId, 'logout');
    await recordSelfAction(this.activity, session.user, 'auth.logout');
  }

  /** Changes the caller's password and signs out every other session of theirs. */
  async changePassword(session: AuthenticatedSession, currentPassword: string, newPassword: string): Promise<void> {
    const accountKey = usernameKey(session.user.username);
    this.refuseWhileBlocked('password attempts', this.passwordChecks.blockedFor(accountKey));
    const takeBack = this.passwordChecks.recordFailure(accountKey);
    if (!(await verifyPassword(session.user.password_hash, currentPassword))) throw badRequest('Current password is incorrect');
    takeBack();
    if (currentPassword === newPassword) throw badRequest('New password must be different from current password');
    await this.users.setPassword(session.user.id, newPassword);
    await this.sessions.revokeAllForUser(session.user.id, 'password changed', session.sessionId);
    await recordSelfAction(this.activity, session.user, 'auth.password_change');
  }
}
