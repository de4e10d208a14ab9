import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../../lib/clock';
import type { ServerRow, ServersRepository } from './repository';

/** How often a server notes that it is alive. */
export const HEARTBEAT_MS = 5_000;
/** A server not heard from for this long is dead: its recorders and leases are taken over. */
export const DEAD_AFTER_MS = 20_000;
/** Rows of servers dead this long are removed (a restarted server registers under a new id). */
const FORGET_AFTER_MS = 7 * 24 * 3_600_000;

export interface ServerIdentity {
  host: string;
  internalAddress: string;
  version: string;
  scope: string;
}

/**
 * This server in the servers table: registered at start, a heartbeat every HEARTBEAT_MS on the
 * injected clock, and on a clean stop its last_seen moved back past DEAD_AFTER_MS, so the others
 * take over its recorders at once instead of 20 s later. Each beat also tells `onBeat` (failover).
 */
export class ServerRegistry {
  private readonly timer: Timer;
  private running = false;
  private beating: Promise<void> | undefined;
  private lastError: string | undefined;
  /** Work done after each heartbeat (the failover pass); its failure is logged, never stops the beat. */
  onBeat: (() => Promise<void>) | undefined;

  constructor(
    /** Unique per process: the scheduler's claimant id (`host/pid/nonce`), so its claims name this row. */
    readonly id: string,
    private readonly repository: ServersRepository,
    private readonly clock: Clock,
    private readonly identity: ServerIdentity,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = clock.timer();
  }

  async start(): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.repository.register({
      id: this.id,
      host: this.identity.host,
      internal_address: this.identity.internalAddress,
      version: this.identity.version,
      scope: this.identity.scope,
      started_at: now,
      last_seen: now,
    });
    this.running = true;
    this.log.info(
      { serverId: this.id, internalAddress: this.identity.internalAddress },
      'registered in the servers table',
    );
    this.arm();
  }

  /** One heartbeat and the work that follows it; concurrent callers share the one in flight (tests call it). */
  beat(): Promise<void> {
    this.beating ??= this.beatOnce().finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  private async beatOnce(): Promise<void> {
    try {
      const now = this.clock.now();
      if (!(await this.repository.beat(this.id, now.toISOString()))) {
        await this.repository.register({
          id: this.id,
          host: this.identity.host,
          internal_address: this.identity.internalAddress,
          version: this.identity.version,
          scope: this.identity.scope,
          started_at: now.toISOString(),
          last_seen: now.toISOString(),
        });
      }
      await this.repository.forgetSilentSince(new Date(now.getTime() - FORGET_AFTER_MS).toISOString());
      await this.onBeat?.();
      this.lastError = undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A database outage repeats on every beat: said once, and again when it changes.
      if (message !== this.lastError) this.log.warn({ err: error }, 'server heartbeat failed');
      this.lastError = message;
    }
  }

  private arm(): void {
    if (!this.running) return;
    this.timer.arm(HEARTBEAT_MS, () => void this.beat().finally(() => this.arm()));
  }

  /** Servers heard from within DEAD_AFTER_MS, this one included. */
  async live(): Promise<ServerRow[]> {
    return this.repository.listSeenSince(new Date(this.clock.now().getTime() - DEAD_AFTER_MS).toISOString());
  }

  /** Live servers (other than this one) whose recorders are of `scope`. */
  async liveOfScope(scope: string): Promise<ServerRow[]> {
    return (await this.live()).filter((row) => row.scope === scope && row.id !== this.id);
  }

  isAlive(row: Pick<ServerRow, 'last_seen'>): boolean {
    return this.clock.now().getTime() - Date.parse(row.last_seen) <= DEAD_AFTER_MS;
  }

  /** True when `id` is a registered server not heard from for DEAD_AFTER_MS (false for one never registered). */
  async isDead(id: string): Promise<boolean> {
    const row = await this.repository.find(id);
    return row !== undefined && !this.isAlive(row);
  }

  /** Stops beating and marks this server dead at once: a server stopped for an upgrade hands over now. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.timer.disarm();
    await this.beating;
    const now = this.clock.now();
    const gone = new Date(now.getTime() - DEAD_AFTER_MS - 1000).toISOString();
    await this.repository
      .stopped(this.id, gone, now.toISOString())
      .catch((error: unknown) => this.log.warn({ err: error }, 'could not mark this server stopped'));
  }
}
