import type { User } from '../../contract/auth';

/** Filters the loaded list: case-insensitive substring of username, email or full name (SPEC.md section 5). */
export function filterUsers<T extends Pick<User, 'username' | 'email' | 'full_name'>>(users: readonly T[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...users];
  return users.filter((user) =>
    [user.username, user.email, user.full_name ?? ''].some((field) => field.toLowerCase().includes(needle)),
  );
}
