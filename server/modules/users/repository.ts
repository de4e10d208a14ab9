import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema';
import type { UserRow } from './user';
import { usernameKey } from './username-key';

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('id').execute();
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst();
  }

  async count(): Promise<number> {
    const { n } = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
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

  /**
   * Updates a user unless that would leave no other active superuser (then 'last-superuser').
   * The active superusers' rows are locked first (a no-op UPDATE, which locks on PostgreSQL and
   * takes the write lock on SQLite), so two superusers demoting each other at once cannot both win.
   */
  updateKeepingASuperuser(id: number, values: Updateable<UsersTable>): Promise<UserRow | undefined | 'last-superuser'> {
    return this.db.transaction().execute(async (trx) => {
      const superusers = await trx
        .updateTable('users')
        .set((eb) => ({ is_superuser: eb.ref('is_superuser') }))
        .where('is_superuser', '=', 1)
        .where('is_active', '=', 1)
        .returning('id')
        .execute();
      if (!superusers.some((row) => row.id !== id)) return 'last-superuser';
      return trx.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
    });
  }

  update(id: number, values: Updateable<UsersTable>): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }
}
