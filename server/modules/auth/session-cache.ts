import { LRUCache } from 'lru-cache';
import type { Clock } from '../../lib/clock';
import type { UserRow } from '../users';

/** How long a server trusts its memory before asking whether anything changed elsewhere. */
export const AUTH_GENERATION_CHECK_MS = 1000;
const MAX_SESSIONS = 10_000;

export interface CachedSession {
  user: UserRow;
  /** The last activity this server knows of (ms); another server may know a later one. */
  lastSeenMs: number;
  /** The auth generation read before the session was: the entry is good only while it holds. */
  generation: number;
}

export interface AuthGenerationStore {
  readGeneration(): Promise<number>;
  bumpGeneration(): Promise<void>;
}

const within = (elapsed: number) => elapsed >= 0 && elapsed < AUTH_GENERATION_CHECK_MS;

/**
 * Live sessions as last read from the database, so a signed-in request costs no query. Kept exact
 * by one counter in the database (auth_generation) that every revocation and every change to a
 * user moves: this server drops its entries at once when it moves it, and any server re-reads the
 * counter when its reading is a second old (one tiny query a second at most, shared by all
 * requests), dropping everything it holds when the counter moved. Idle expiry is not cached: an
 * entry whose activity is a day old is checked in the database again.
 */
export class SessionCache {
  private readonly entries = new LRUCache<string, CachedSession>({ max: MAX_SESSIONS });
  private generation = Number.NaN;
  /** When the counter was last read, by the injected clock and by wall time (see fresh()). */
  private readAt = Number.NaN;
  private readAtWall = Number.NaN;
  private reading: Promise<void> | undefined;
  /** Moves whenever this server forgets: a counter read begun before then is not trusted. */
  private forgets = 0;

  constructor(
    private readonly store: AuthGenerationStore,
    private readonly clock: Clock,
  ) {}

  /** The entry of a session, if this server's memory of it is still good. */
  async get(sessionId: string): Promise<CachedSession | undefined> {
    await this.fresh();
    return this.current(sessionId);
  }

  /** The entry of a session when memory alone can tell it is good (the counter was read within the second), without a promise. */
  peek(sessionId: string, nowMs: number): CachedSession | undefined {
    return this.isFresh(nowMs, performance.now()) ? this.current(sessionId) : undefined;
  }

  /**
   * The generation to tag an entry with: read before its session row, so a change made between the
   * two reads leaves the entry already outdated.
   */
  async currentGeneration(): Promise<number> {
    await this.fresh();
    return this.generation;
  }

  set(sessionId: string, entry: CachedSession): void {
    if (entry.generation === this.generation) this.entries.set(sessionId, entry);
  }

  /** Sessions or users changed here: every server must forget what it holds. */
  async changed(): Promise<void> {
    this.forget();
    await this.store.bumpGeneration();
    this.forget();
  }

  private forget(): void {
    this.forgets++;
    this.entries.clear();
    this.generation = Number.NaN;
    this.readAt = Number.NaN;
    this.readAtWall = Number.NaN;
  }

  /**
   * Re-reads the counter once a second has passed by either clock: tests move the injected one, and
   * wall time keeps the bound for another server's change when the injected clock stands still or
   * goes back.
   */
  private async fresh(): Promise<void> {
    const now = this.clock.now().getTime();
    const wall = performance.now();
    if (this.isFresh(now, wall)) return;
    const forgets = this.forgets;
    this.reading ??= (async () => {
      try {
        const generation = await this.store.readGeneration();
        if (forgets !== this.forgets) return;
        if (generation !== this.generation) this.entries.clear();
        this.generation = generation;
        this.readAt = now;
        this.readAtWall = wall;
      } finally {
        this.reading = undefined;
      }
    })();
    await this.reading;
    // Forgotten meanwhile (a change here): read again, after the change.
    if (forgets !== this.forgets) await this.fresh();
  }

  /** The entry held for a session, if it was read under the counter's current value. */
  private current(sessionId: string): CachedSession | undefined {
    const entry = this.entries.get(sessionId);
    return entry?.generation === this.generation ? entry : undefined;
  }

  private isFresh(now: number, wall: number): boolean {
    return within(now - this.readAt) && within(wall - this.readAtWall);
  }
}
