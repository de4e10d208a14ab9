import type { UserUpdateRequest } from './auth';

export const SELF_DEACTIVATION_MESSAGE = 'Cannot deactivate your own account';
export const LAST_SUPERUSER_MESSAGE = 'The last active superuser cannot be demoted or deactivated';

export interface AccountFlags {
  is_active: boolean;
  is_superuser: boolean;
}

/** What an update does to an account: deactivates it, and whether it takes away an active superuser. */
export function accountUpdateEffects(
  current: AccountFlags,
  changes: Pick<UserUpdateRequest, 'is_active' | 'is_superuser'>,
) {
  const deactivating = changes.is_active === false && current.is_active;
  const losesSuperuser = current.is_superuser && current.is_active && (changes.is_superuser === false || deactivating);
  return { deactivating, losesSuperuser };
}

/**
 * Why an account update is refused, or null: nobody deactivates their own account (400), and the last
 * active superuser stays one (409). `otherActiveSuperusers` is only read when the update removes one.
 */
export function accountUpdateRefusal(
  effects: ReturnType<typeof accountUpdateEffects>,
  ownAccount: boolean,
  otherActiveSuperusers: number,
): { status: 400 | 409; message: string } | null {
  if (effects.deactivating && ownAccount) return { status: 400, message: SELF_DEACTIVATION_MESSAGE };
  if (effects.losesSuperuser && otherActiveSuperusers === 0) return { status: 409, message: LAST_SUPERUSER_MESSAGE };
  return null;
}
