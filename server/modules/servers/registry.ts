import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../../lib/clock';
import { HeartbeatLateness } from './heartbeat-lateness';
import type { ServerRow, ServersRepository } from './repository';
import type { ServerEvents } from '../../lib/events';

/** How often a server renews its lease. */
export const HEARTBEAT_MS = 5_000;
/** Beats a server may miss before its lease runs out and another server may take it over. */
export const MISSED_BEATS_TO_DEAD = 3;
/** A server not heard from for this long has lost its lease: it is taken over at the next look. */
export const DEAD_AFTER_MS = MISSED_BEATS_TO_DEAD * HEARTBEAT_MS;

export interface ServerIdentity {
  host: string;
  internalAddress: string;
  version: string;
  scope: string;
}

/** Who took this server's lease, and when (what it says when it finds out). */
export type LeaseTaken = ServerEvents['lease_lost'];

/**
 * This server's lease in the servers table: registered at start, renewed every HEARTBEAT_MS on a timer
 * of its own and a database connection of its own (`heartbeats`), so that neither the takeover work,
 * nor launches holding the shared pool, nor requests delay a beat by more than the time they hold the
 * event loop. A beat never waits for the one before: the next is armed first. How late each beat's
 * write lands after its due time is kept (`lateness`, exported on /metrics).
 *
 * A server silent for DEAD_AFTER_MS is taken over by the first live server that looks (isDead,
 * takeover.ts): one conditional update re-checks the lease and marks it taken. From then on its beats
 * are refused, so a server that was only stalled (stopped by a debugger, starved of CPU, cut off from
 * the database) learns at its next beat that its lease was taken and stops its claims (`onLeaseLost`).
 * On a clean stop its last_seen is moved back past DEAD_AFTER_MS, so the others take over at once.
 */
export class ServerRegistry {
  readonly lateness: HeartbeatLateness;
  private readonly timer: Timer;
  private running = false;
  private beating: Promise<void> | undefined;
  private lastError: string | undefined;
  private taken: LeaseTaken | undefined;

  constructor(
    /** Unique per process: the scheduler's claimant id (`host/pid/nonce`), so its claims name this row. */
    readonly id: string,
    private readonly repository: ServersRepository,
    private readonly clock: Clock,
    private readonly identity: ServerIdentity,
    private readonly log: FastifyBaseLogger,
    /** The servers table on the heartbeat's own connection (default: `repository`'s). */
    private readonly heartbeats: ServersRepository = repository,
    /** Told who took this server's lease, once, when a beat finds it taken (the app's `lease_lost` event). */
    private readonly onLeaseLost: (taken: LeaseTaken) => void = () => undefined,
  ) {
    this.timer = clock.timer();
    this.lateness = new HeartbeatLateness(clock);
  }

  async start(): Promise<void> {
    await this.register();
    this.running = true;
    this.log.info(
      { serverId: this.id, internalAddress: this.identity.internalAddress },
      'registered in the servers table',
    );
    this.arm();
  }

  /** Who took this server's lease, if a beat found it taken. */
  leaseTaken(): LeaseTaken | undefined {
    return this.taken;
  }

  /**
   * One heartbeat, due at `dueAt` (its lateness is measured from it); concurrent callers share the one
   * in flight, so a beat whose write is still pending when the next falls due covers both.
   */
  beat(dueAt = this.clock.now().getTime()): Promise<void> {
    this.beating ??= this.beatOnce(dueAt).finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  private async register(): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.heartbeats.register({
      id: this.id,
      host: this.identity.host,
      internal_address: this.identity.internalAddress,
      version: this.identity.version,
      scope: this.identity.scope,
      started_at: now,
      last_seen: now,
    });
  }

  private async beatOnce(dueAt: number): Promise<void> {
    if (this.taken) return;
    try {
      const answer = await this.heartbeats.beat(this.id, this.clock.now().toISOString());
      if (answer.kind === 'missing') await this.register();
      if (answer.kind === 'taken') return this.leaseLost({ by: answer.by, at: answer.at });
      this.lateness.record(dueAt);
      if (this.lastError !== undefined) this.log.info('server heartbeat written again');
      this.lastError = undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A database outage repeats on every beat: said once, and again when it changes.
      if (message !== this.lastError) this.log.warn({ err: error }, 'server heartbeat failed');
      this.lastError = message;
    }
  }

  private leaseLost(taken: LeaseTaken): void {
    this.taken = taken;
    this.running = false;
    this.timer.disarm();
    this.log.error(
      { serverId: this.id, takenBy: taken.by, takenAt: taken.at },
      `this server's lease was taken over by ${taken.by} at ${taken.at} (it was silent for ${DEAD_AFTER_MS / 1000} s): stopping its claims`,
    );
    this.onLeaseLost(taken);
  }

  /** Arms the next beat before this one is written: a slow write never delays the next beat. */
  private arm(): void {
    if (!this.running) return;
    const dueAt = this.clock.now().getTime() + HEARTBEAT_MS;
    this.timer.arm(HEARTBEAT_MS, () => {
      this.arm();
      void this.beat(dueAt);
    });
  }

  /** Servers holding their lease (heard from within DEAD_AFTER_MS, not taken over), this one included. */
  async live(): Promise<ServerRow[]> {
    return this.repository.listSeenSince(new Date(this.clock.now().getTime() - DEAD_AFTER_MS).toISOString());
  }

  /** Live servers (other than this one) whose recorders are of `scope`. */
  async liveOfScope(scope: string): Promise<ServerRow[]> {
    return (await this.live()).filter((row) => row.scope === scope && row.id !== this.id);
  }

  isAlive(row: Pick<ServerRow, 'last_seen' | 'taken_over_by'>): boolean {
    return row.taken_over_by === null && this.clock.now().getTime() - Date.parse(row.last_seen) <= DEAD_AFTER_MS;
  }

  /**
   * True when `id` is a registered server that is dead: taken over now by this server (its lease ran
   * out; checked and marked in one statement) or before, or stopped cleanly. False for one never
   * registered, for one holding its lease, and for this server.
   */
  async isDead(id: string): Promise<boolean> {
    if (id === this.id) return false;
    const now = this.clock.now();
    return this.repository.takeOverIfExpired(
      id,
      this.id,
      now.toISOString(),
      new Date(now.getTime() - DEAD_AFTER_MS).toISOString(),
    );
  }

  /** Stops beating and marks this server dead at once: a server stopped for an upgrade hands over now. */
  async stop(): Promise<void> {
    this.timer.disarm();
    if (!this.running) return;
    this.running = false;
    await this.beating;
    if (this.taken) return;
    const now = this.clock.now();
    const gone = new Date(now.getTime() - DEAD_AFTER_MS - 1000).toISOString();
    await this.heartbeats
      .stopped(this.id, gone, now.toISOString())
      .catch((error: unknown) => this.log.warn({ err: error }, 'could not mark this server stopped'));
  }
}
