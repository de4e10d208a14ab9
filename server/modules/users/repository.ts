import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { User } from '../../../contract/auth';
import { fromFlag } from '../../db';
import type { Database, UsersTable } from '../../db/schema';

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
    last_login: row.last_login,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('id').execute();
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('username_key', '=', username.toLowerCase()).executeTakeFirst();
  }

  async count(): Promise<number> {
    const { n } = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Active superusers other than `exceptId`. */
  async countOtherActiveSuperusers(exceptId: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_superuser', '=', 1)
      .where('is_active', '=', 1)
      .where('id', '!=', exceptId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  insert(values: Insertable<UsersTable>): Promise<UserRow> {
    return this.db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, values: Updateable<UsersTable>): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }
}
