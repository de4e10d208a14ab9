import type { LoginResponse } from '../../../contract/auth';
import type { Clock } from '../../lib/clock';
import { HttpError, badRequest, tooManyRequests } from '../../lib/http-error';
import type { Kysely } from 'kysely';
import { fromFlag, type Database, type Dialect } from '../../db';
import { toUser, usernameKey } from '../users';
import type { ActivityService } from '../activity';
import { recordFailedLogin, recordSelfAction } from '../activity';
import type { UsersService } from '../users';
import { FailureLimiter, type CountedAttempt, type LimitedAttempt } from './login-limiter';
import { verifyAgainstDummy, verifyPassword } from '../../lib/passwords';
import type { AuthenticatedSession } from '../../lib/fastify';
import type { SessionService } from './session-service';

export const LOGIN_FAILED_MESSAGE = 'Incorrect username or password';
export const ACCOUNT_DEACTIVATED_MESSAGE = 'This account is deactivated. Ask an administrator to activate it again.';
const LIMIT_WINDOW_MS = 5 * 60 * 1000;

function refuseWhileBlocked(what: string, attempt: LimitedAttempt): asserts attempt is CountedAttempt {
  if (!attempt.blocked) return;
  const minutes = Math.ceil(attempt.waitMs / 60000);
  throw tooManyRequests(
    `Too many failed ${what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    Math.ceil(attempt.waitMs / 1000),
  );
}

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
    db: { kysely: Kysely<Database>; dialect: Dialect },
  ) {
    const limiter = (name: string, maxFailures: number) =>
      new FailureLimiter(
        { db: db.kysely, dialect: db.dialect, clock, name },
        { maxFailures, windowMs: LIMIT_WINDOW_MS },
      );
    this.perUserAndAddress = limiter('sign-in', 5);
    this.perAddress = limiter('sign-in-address', 20);
    this.passwordChecks = limiter('password-check', 5);
  }

  async login(username: string, password: string, meta: { ip: string; userAgent?: string }): Promise<LoginResponse> {
    const pairKey = `${meta.ip} ${usernameKey(username)}`;
    // Counted before the (slow) check, so simultaneous guesses cannot all pass the limit.
    const pair = await this.perUserAndAddress.attempt(pairKey);
    refuseWhileBlocked('sign-in attempts', pair);
    const address = await this.perAddress.attempt(meta.ip);
    if (address.blocked) await pair.takeBack();
    refuseWhileBlocked('sign-in attempts', address);
    let row: Awaited<ReturnType<UsersService['findRowByUsername']>>;
    let passwordOk: boolean;
    try {
      row = await this.users.findRowByUsername(username);
      passwordOk = row
        ? await verifyPassword(row.password_hash, password)
        : (await verifyAgainstDummy(password), false);
    } catch (error) {
      // The database failed, not the caller: this attempt does not count against them.
      await Promise.allSettled([pair.takeBack(), address.takeBack()]);
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
    await this.perUserAndAddress.reset(pairKey);
    await address.takeBack();
    const { token } = await this.sessions.open(row, meta);
    const user = toUser(await this.users.recordLogin(row.id));
    await recordSelfAction(this.activity, user, 'auth.login', { ip: meta.ip });
    return { access_token: token, token_type: 'bearer', user };
  }

  async logout(session: AuthenticatedSession): Promise<void> {
    await this.sessions.revoke(session.sessionId, 'logout');
    await recordSelfAction(this.activity, session.user, 'auth.logout');
  }

  /** Changes the caller's password and signs out every other session of theirs. */
  async changePassword(session: AuthenticatedSession, currentPassword: string, newPassword: string): Promise<void> {
    const accountKey = usernameKey(session.user.username);
    const check = await this.passwordChecks.attempt(accountKey);
    refuseWhileBlocked('password attempts', check);
    if (!(await verifyPassword(session.user.password_hash, currentPassword)))
      throw badRequest('Current password is incorrect');
    await check.takeBack();
    if (currentPassword === newPassword) throw badRequest('New password must be different from current password');
    await this.users.setPassword(session.user.id, newPassword);
    await this.sessions.revokeAllForUser(session.user.id, 'password changed', session.sessionId);
    await recordSelfAction(this.activity, session.user, 'auth.password_change');
  }
}
