import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { SecretKeys } from './secret-key';

/** The settings row holding the fingerprint of the key the database was initialised with. */
export const KEY_FINGERPRINT_SETTING = 'secret_key_fingerprint';

export class SecretKeyMismatchError extends Error {
  constructor() {
    super(
      'SECRET_KEY does not match the key this database was initialised with. Every server sharing a database needs ' +
        'the same SECRET_KEY (or the same DATA_DIR/secret.key): with another key its sessions and the saved GitHub token ' +
        `cannot be read. To replace the key on purpose, delete the "${KEY_FINGERPRINT_SETTING}" row of the settings table.`,
    );
    this.name = 'SecretKeyMismatchError';
  }
}

/**
 * Refuses a master key other than the database's: a second server started with another SECRET_KEY
 * would reject the first one's sessions and fail to decrypt its settings, one request at a time. The
 * fingerprint is an HMAC of a constant under a derived key: it says nothing about the key itself.
 */
export async function checkKeyFingerprint(db: Kysely<Database>, keys: SecretKeys, now: string): Promise<void> {
  const fingerprint = crypto
    .createHmac('sha256', keys.derive('key-fingerprint'))
    .update('capture-command-center')
    .digest('base64url');
  // Two servers initialising one database at once: the first insert wins and both compare with it.
  await db
    .insertInto('settings')
    .values({ key: KEY_FINGERPRINT_SETTING, value: fingerprint, updated_at: now, updated_by: null })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', KEY_FINGERPRINT_SETTING)
    .executeTakeFirstOrThrow();
  if (stored.value !== fingerprint) throw new SecretKeyMismatchError();
}
