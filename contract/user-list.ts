import { z } from 'zod';
import type { User } from './auth';
import { pageInMemory, searchSortShape } from './list-query';

/*
 * The Users table at scale: GET /api/auth/users with any of these parameters answers one page and the
 * count of every match (`total`); without them it keeps docs/reference.md's whole list.
 */

export const USER_SORT_FIELDS = [
  'username',
  'email',
  'full_name',
  'role',
  'is_active',
  'last_login',
  'created_at',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** `q`: part of the username, email or full name. */
export const usersListQuerySchema = z.strictObject({
  ...searchSortShape(USER_SORT_FIELDS),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
});
export type UsersListQuery = z.input<typeof usersListQuerySchema>;

/** Every user without a page query (docs/reference.md), else one page of the matching users and their count. */
export function usersPageOf(
  users: User[],
  query: z.output<typeof usersListQuerySchema>,
): { users: User[]; total?: number } {
  if (Object.values(query).every((value) => value === undefined)) return { users };
  const { rows, total } = pageInMemory(
    users,
    { ...query, limit: query.limit ?? 10, offset: query.offset ?? 0 },
    {
      searched: (user) => [user.username, user.email, user.full_name],
      sortValue: (user, field) => {
        const value = user[field];
        if (typeof value === 'boolean') return value ? 1 : 0;
        return typeof value === 'string' && ['username', 'email', 'full_name'].includes(field)
          ? value.toLowerCase()
          : value;
      },
      ties: ['username'],
      defaultOrder: 'asc',
    },
  );
  return { users: rows, total };
}
