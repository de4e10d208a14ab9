import type { Generated } from 'kysely';

/*
 * Table types. Instants are stored as ISO 8601 UTC text and booleans as 0/1 integers in both
 * SQLite and PostgreSQL, so one repository serves both dialects without conversion code.
 * Each module adds its tables here.
 */

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lower-cased username: the unique key, so names are unique case-insensitively. */
  username_key: string;
  email: string;
  full_name: string | null;
  role: 'admin' | 'user';
  is_active: number;
  is_superuser: number;
  password_hash: string;
  last_login: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** The JWT's `jti`. */
  id: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}
