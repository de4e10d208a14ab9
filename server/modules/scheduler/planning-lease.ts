import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../lib/clock';
import type { SchedulerRepository } from './repository';

/** How long a lease lasts unless renewed: a server that died while planning holds up others this long at most. */
export const PLANNING_LEASE_MS = 30_000;
/** How often a server waiting for another's plan asks again (a plan of 10,000 mosques takes about a second). */
const RETRY_MS = 25;

/**
 * One plan at a time across the servers sharing a database. Plans of the fleet and of changed
 * mosques read the mosques and then write jobs; one server's plan that read a mosque before another
 * server deleted it (and re-planned it: nothing to cancel yet) would otherwise write a job for a
 * deleted mosque, and a forced re-plan could write back a time that was just changed. The service
 * already runs its own plans one after another; this makes the servers take turns too.
 */
export class PlanningLease {
  constructor(
    private readonly deps: {
      repository: SchedulerRepository;
      clock: Clock;
      /** Who this server is (its launch claimant id). */
      holder: string;
      onLeaseError(error: unknown): void;
    },
  ) {}

  async hold<T>(plan: () => Promise<T>): Promise<T> {
    while (!(await this.take())) await sleep(RETRY_MS);
    const renewal = setInterval(() => void this.take().catch(this.deps.onLeaseError), PLANNING_LEASE_MS / 3);
    renewal.unref();
    try {
      return await plan();
    } finally {
      clearInterval(renewal);
      // Not released (database down), the lease lapses after PLANNING_LEASE_MS: plans wait, none is lost.
      await this.deps.repository.releasePlanningLease(this.deps.holder).catch(this.deps.onLeaseError);
    }
  }

  private take(): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.repository.takePlanningLease(this.deps.holder, now.toISOString(), new Date(now.getTime() + PLANNING_LEASE_MS).toISOString());
  }
}
