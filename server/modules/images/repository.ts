import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, ImagesTable } from '../../db/schema';

export type ImageRow = Selectable<ImagesTable>;

export class ImagesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(scope: string): Promise<ImageRow[]> {
    return this.db.selectFrom('images').selectAll().where('scope', '=', scope).orderBy('created_at', 'desc').execute();
  }

  findById(amiId: string): Promise<ImageRow | undefined> {
    return this.db.selectFrom('images').selectAll().where('ami_id', '=', amiId).executeTakeFirst();
  }

  /** Inserts or refreshes an image; `source_instance_id` is kept when the provider does not know it. */
  async upsert(values: Insertable<ImagesTable>): Promise<void> {
    const { ami_id: _id, ...changes } = values;
    await this.db
      .insertInto('images')
      .values(values)
      .onConflict((oc) =>
        oc.column('ami_id').doUpdateSet((eb) => ({
          ...changes,
          source_instance_id: eb.fn.coalesce('excluded.source_instance_id', 'images.source_instance_id'),
        })),
      )
      .execute();
  }

  async delete(amiId: string): Promise<void> {
    await this.db.deleteFrom('images').where('ami_id', '=', amiId).execute();
  }
}
