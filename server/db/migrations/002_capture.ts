import type { DialectMigration } from './helpers';

/** The capture fleet: instances (one recorder each), their recordings, and recorder images (AMIs). */
export const captureMigration: DialectMigration = {
  async up(db, dialect) {
    // Sizes of long recordings pass 2 GiB: 64-bit integers; fractional seconds: double precision.
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    const double = dialect === 'postgres' ? 'double precision' : 'real';

    await db.schema
      .createTable('instances')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('provider', 'text', (c) => c.notNull())
      // Which driver instance sees it (local:<host>:<data dir>, aws:<region>): see CaptureProvider.scope.
      .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('provider_instance_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('instance_type', 'text', (c) => c.notNull())
      .addColumn('mosque_id', 'text')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('duration', 'integer', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('image_id', 'text')
      .addColumn('launch_time', 'text', (c) => c.notNull())
      .addColumn('running_at', 'text')
      .addColumn('ended_at', 'text')
      .addColumn('state_reason', 'text')
      .addColumn('job_id', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // A scheduler job launches at most one instance, whichever server runs it (NULLs are distinct).
    await db.schema.createIndex('instances_job_id').on('instances').column('job_id').unique().execute();
    await db.schema.createIndex('instances_scope_state').on('instances').columns(['scope', 'state']).execute();
    await db.schema.createIndex('instances_launch_time').on('instances').column('launch_time').execute();

    await db.schema
      .createTable('recordings')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('instance_id', 'text', (c) => c.notNull().references('instances.id').onDelete('cascade'))
      .addColumn('mosque_id', 'text')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('ended_at', 'text')
      .addColumn('bytes', bigint, (c) => c.notNull().defaultTo(0))
      .addColumn('duration_seconds', double)
      .addColumn('file_path', 'text')
      .addColumn('reason', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('recordings_instance_id').on('recordings').column('instance_id').unique().execute();
    await db.schema.createIndex('recordings_started_at').on('recordings').column('started_at').execute();

    await db.schema
      .createTable('images')
      .addColumn('ami_id', 'text', (c) => c.primaryKey())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('size_gb', double, (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('source_instance_id', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
