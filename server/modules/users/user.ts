import type { Selectable } from 'kysely';
import type { User } from '../../../contract/auth';
import { fromFlag } from '../../db';
import type { UsersTable } from '../../db/schema';

/** A user as stored, and as the API shows it: what other modules may know of a user. */
export type UserRow = Selectable<UsersTable>;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    full_name: row.full_name,
    role: row.role,
    is_active: fromFlag(row.is_active),
    is_superuser: fromFlag(row.is_superuser),
    generated_credentials: fromFlag(row.password_generated),
    last_login: row.last_login,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
