import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { User, UserCreateRequest, UserUpdateRequest } from '../../../contract/auth';
import { INITIAL_PASSWORD_FILE, userCreateRequestSchema } from '../../../contract/auth';
import { accountUpdateEffects, accountUpdateRefusal, LAST_SUPERUSER_MESSAGE } from '../../../contract/account-rules';
import type { Clock } from '../../lib/clock';
import { conflict, HttpError, notFound } from '../../lib/http-error';
import { fromFlag, toFlag } from '../../db';
import type { UsersTable } from '../../db/schema';
import type { Updateable } from 'kysely';
import { hashPassword } from '../../lib/passwords';
import type { ActivityActor, ActivityService } from '../activity';
import { recordUserCreated, recordUserUpdated } from '../activity';
import type { UsersRepository } from './repository';
import { toUser, type UserRow } from './user';
import { usernameKey, usernameSkeleton } from './username-key';
import type { EventBus, ServerEvents } from '../../lib/events';

/** Ends a user's sessions when the account is deactivated or its password reset (the auth module does it). */
export interface UserSessions {
  revokeAllForUser(userId: number, reason: string, exceptSessionId?: string): Promise<void>;
  /** A user's role or state changed: sessions cached in memory are read again. */
  usersChanged(): Promise<void>;
}

/** An account created or changed (not a sign-in or a password change of one's own: nothing others see). */
export type UserChange = ServerEvents['user_changed'];

export class UsersService {
  constructor(
    private readonly repository: UsersRepository,
    private readonly sessions: UserSessions,
    private readonly clock: Clock,
    private readonly activity: ActivityService,
    /** Told of every account created or changed (`user_changed`: the live feed). */
    private readonly events: Pick<EventBus, 'emit'>,
    /** Where the first start saved a generated superuser password (DATA_DIR/initial-admin-password). */
    private readonly initialPasswordFile?: string,
  ) {}

  private emit(change: UserChange): void {
    this.events.emit('user_changed', change);
  }

  async list(): Promise<User[]> {
    return (await this.repository.list()).map(toUser);
  }

  findRowByUsername(username: string): Promise<UserRow | undefined> {
    return this.repository.findByUsername(username);
  }

  async findRowById(id: number): Promise<UserRow> {
    const row = await this.repository.findById(id);
    if (!row) throw notFound(`User ${id} not found`);
    return row;
  }

  /** Creates an account; `actor` is who the activity log names (null: the system). */
  async create(input: UserCreateRequest, actor: ActivityActor | null = null): Promise<User> {
    const user = await this.insert(input);
    this.emit({ type: 'created', user_id: user.id });
    await recordUserCreated(this.activity, actor, user);
    return user;
  }

  private async insert(input: UserCreateRequest, passwordGenerated = false): Promise<User> {
    const request = userCreateRequestSchema.parse(input);
    if (await this.repository.findByUsername(request.username)) {
      throw conflict(`Username ${request.username} is already taken`);
    }
    const skeleton = usernameSkeleton(request.username);
    const twin = (await this.repository.list()).find((row) => usernameSkeleton(row.username) === skeleton);
    if (twin)
      throw conflict(`Username ${request.username} looks like the existing username ${twin.username}; choose another`);
    const now = this.clock.now().toISOString();
    try {
      const row = await this.repository.insert({
        username: request.username,
        username_key: usernameKey(request.username),
        email: request.email,
        full_name: request.full_name || null,
        role: request.role,
        is_active: toFlag(request.is_active),
        is_superuser: toFlag(request.is_superuser),
        password_hash: await hashPassword(request.password),
        password_generated: toFlag(passwordGenerated),
        last_login: null,
        created_at: now,
        updated_at: now,
      });
      return toUser(row);
    } catch (error) {
      // Two creates racing for one name: the unique index decides.
      if (await this.repository.findByUsername(request.username))
        throw conflict(`Username ${request.username} is already taken`);
      throw error;
    }
  }

  /** `actor` is the superuser making the change, by their session (which survives a reset of their own password). */
  async update(
    id: number,
    changes: UserUpdateRequest,
    actor: { user: ActivityActor & { id: number }; sessionId: string },
  ): Promise<User> {
    const current = await this.findRowById(id);
    const effects = accountUpdateEffects(
      { is_active: fromFlag(current.is_active), is_superuser: fromFlag(current.is_superuser) },
      changes,
    );
    const { deactivating, losesSuperuser } = effects;
    const otherSuperusers = losesSuperuser ? await this.repository.countOtherActiveSuperusers(id) : 1;
    const refusal = accountUpdateRefusal(effects, id === actor.user.id, otherSuperusers);
    if (refusal) throw new HttpError(refusal.status, refusal.message);

    const values: Updateable<UsersTable> = { updated_at: this.clock.now().toISOString() };
    if (changes.email !== undefined) values.email = changes.email;
    if (changes.full_name !== undefined) values.full_name = changes.full_name || null;
    if (changes.role !== undefined) values.role = changes.role;
    if (changes.is_active !== undefined) values.is_active = toFlag(changes.is_active);
    if (changes.is_superuser !== undefined) values.is_superuser = toFlag(changes.is_superuser);
    if (changes.password) {
      values.password_hash = await hashPassword(changes.password);
      values.password_generated = 0;
    }

    // The early check gives the usual answer cheaply; the guarded update settles a race between two.
    const row = losesSuperuser
      ? await this.repository.updateKeepingASuperuser(id, values)
      : await this.repository.update(id, values);
    if (row === 'last-superuser') throw conflict(LAST_SUPERUSER_MESSAGE);
    if (!row) throw notFound(`User ${id} not found`);
    await this.sessions.usersChanged();
    if (changes.password) await this.forgetInitialPassword(id);
    if (deactivating) await this.sessions.revokeAllForUser(id, 'user deactivated');
    else if (changes.password) {
      await this.sessions.revokeAllForUser(
        id,
        'password reset by an administrator',
        id === actor.user.id ? actor.sessionId : undefined,
      );
    }
    const updated = toUser(row);
    this.emit({ type: 'updated', user_id: id });
    await recordUserUpdated(this.activity, actor.user, toUser(current), updated, changes);
    return updated;
  }

  async setPassword(id: number, password: string): Promise<void> {
    await this.repository.update(id, {
      password_hash: await hashPassword(password),
      password_generated: 0,
      updated_at: this.clock.now().toISOString(),
    });
    await this.sessions.usersChanged();
    await this.forgetInitialPassword(id);
  }

  /** The saved first password stops being true once that account (the first one created) has a new one. */
  private async forgetInitialPassword(id: number): Promise<void> {
    const file = this.initialPasswordFile;
    if (!file || !fs.existsSync(file)) return;
    const [first] = await this.repository.list();
    if (first?.id === id) fs.rmSync(file, { force: true });
  }

  async recordLogin(id: number): Promise<UserRow> {
    const now = this.clock.now().toISOString();
    const row = await this.repository.update(id, { last_login: now });
    if (!row) throw notFound(`User ${id} not found`);
    await this.sessions.usersChanged();
    return row;
  }

  /**
   * First start with an empty database: create the superuser. Its password is ADMIN_PASSWORD, else a
   * random one that is returned (for printing once) and written to DATA_DIR/initial-admin-password (0600).
   */
  async bootstrapSuperuser(options: {
    username: string;
    password?: string;
    dataDir: string;
  }): Promise<{ generatedPassword?: string } | undefined> {
    if ((await this.repository.count()) > 0) return undefined;
    const password = options.password ?? crypto.randomBytes(12).toString('base64url');
    // Made by the server itself at its first start, before anyone can act: not an entry of the activity log.
    await this.insert(
      {
        username: options.username,
        email: `${options.username}@localhost.localdomain`,
        full_name: 'Administrator',
        password,
        role: 'admin',
        is_active: true,
        is_superuser: true,
      },
      options.password === undefined,
    );
    if (options.password) return {};
    fs.mkdirSync(options.dataDir, { recursive: true });
    fs.writeFileSync(path.join(options.dataDir, INITIAL_PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
    return { generatedPassword: password };
  }
}
