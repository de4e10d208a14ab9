import type { User, UserUpdateRequest } from '../../../contract/auth';
import type { ActivityActor, ActivityService } from './service';

/** Fields of a user whose change is logged with its old and new value. Passwords are logged as "changed", never by value. */
const TRACKED = ['email', 'full_name', 'role', 'is_active', 'is_superuser'] as const;

const userTarget = (user: Pick<User, 'username'>) => ({ type: 'user', id: user.username });

export function recordUserCreated(activity: ActivityService, actor: ActivityActor | null, user: User): Promise<void> {
  return activity.record({
    actor,
    action: 'user.create',
    target: userTarget(user),
    detail: { role: user.role, is_active: user.is_active, is_superuser: user.is_superuser, email: user.email },
  });
}

/** One entry naming what changed: `changed` lists the fields, `changes` gives from/to for all but the password. */
export function recordUserUpdated(
  activity: ActivityService,
  actor: ActivityActor,
  before: User,
  after: User,
  request: UserUpdateRequest,
): Promise<void> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of TRACKED) {
    if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  }
  const changed = Object.keys(changes);
  if (request.password) changed.push('password');
  return activity.record({ actor, action: 'user.update', target: userTarget(after), detail: { changed, changes } });
}

/** A sign-in that failed: the actor is unknown; the target names the account only when it exists. */
export function recordFailedLogin(
  activity: ActivityService,
  knownUser: Pick<User, 'username'> | undefined,
  ip: string,
): Promise<void> {
  return activity.record({
    actor: null,
    action: 'auth.login_failed',
    target: knownUser ? userTarget(knownUser) : { type: 'user', id: '?', label: 'an unknown username' },
    detail: { ip },
  });
}

export function recordSelfAction(
  activity: ActivityService,
  user: ActivityActor,
  action: 'auth.login' | 'auth.logout' | 'auth.password_change',
  detail?: Record<string, unknown>,
): Promise<void> {
  return activity.record({ actor: user, action, target: userTarget(user), detail });
}
