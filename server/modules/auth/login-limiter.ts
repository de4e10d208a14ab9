import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../lib/clock';
import type { Database, Dialect } from '../../db';

export interface LimiterRule {
  maxFailures: number;
  windowMs: number;
}

/** Failures older than their window are deleted after this many recorded attempts, so the table stays small. */
const SWEEP_EVERY = 200;

/** An attempt counted against its key; `takeBack` removes it again. */
export interface CountedAttempt {
  blocked: false;
  takeBack: () => Promise<void>;
}
/** An attempt refused (not counted): the key may try again in `waitMs`. */
export interface BlockedAttempt {
  blocked: true;
  waitMs: number;
}
export type LimitedAttempt = CountedAttempt | BlockedAttempt;

/**
 * Counts failed attempts per key (an address, an address and a username, an account) in a sliding
 * window, in the database: servers sharing one database share the count, so 5 failures in total lock
 * a key out whichever servers they went to.
 */
export class FailureLimiter {
  private recordedSinceSweep = 0;

  constructor(
    private readonly deps: { db: Kysely<Database>; dialect: Dialect; clock: Clock; name: string },
    private readonly rule: LimiterRule,
  ) {}

  /**
   * Counts one attempt as failed now, before it is checked, so attempts that arrive together (on any
   * server) cannot all slip under the limit while their passwords are being verified: the count and the
   * insert run under a lock on the key. A blocked attempt is not counted. The returned `takeBack`
   * removes this one attempt (for an attempt that turned out to succeed, or could not be checked).
   */
  async attempt(key: string): Promise<LimitedAttempt> {
    const { db, dialect, clock, name } = this.deps;
    const now = clock.now().getTime();
    const since = new Date(now - this.rule.windowMs).toISOString();
    const result = await db.transaction().execute(async (trx) => {
      // SQLite runs one transaction at a time already; PostgreSQL serialises the attempts on this key.
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`${name} ${key}`}))`.execute(trx);
      const recent = await trx
        .selectFrom('limiter_failures')
        .select('failed_at')
        .where('limiter', '=', name)
        .where('key', '=', key)
        .where('failed_at', '>', since)
        .orderBy('failed_at')
        .limit(this.rule.maxFailures)
        .execute();
      if (recent.length >= this.rule.maxFailures) {
        return {
          blocked: true as const,
          waitMs: Math.max(1, Date.parse(recent[0].failed_at) + this.rule.windowMs - now),
        };
      }
      const row = await trx
        .insertInto('limiter_failures')
        .values({ limiter: name, key, failed_at: new Date(now).toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { blocked: false as const, id: row.id };
    });
    if (result.blocked) return result;
    if (++this.recordedSinceSweep >= SWEEP_EVERY) await this.sweep();
    return {
      blocked: false,
      takeBack: () =>
        db
          .deleteFrom('limiter_failures')
          .where('id', '=', result.id)
          .execute()
          .then(() => undefined),
    };
  }

  async reset(key: string): Promise<void> {
    await this.deps.db
      .deleteFrom('limiter_failures')
      .where('limiter', '=', this.deps.name)
      .where('key', '=', key)
      .execute();
  }

  private async sweep(): Promise<void> {
    this.recordedSinceSweep = 0;
    const before = new Date(this.deps.clock.now().getTime() - this.rule.windowMs).toISOString();
    await this.deps.db
      .deleteFrom('limiter_failures')
      .where('limiter', '=', this.deps.name)
      .where('failed_at', '<=', before)
      .execute();
  }
}
