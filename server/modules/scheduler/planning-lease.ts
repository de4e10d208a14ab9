import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../lib/clock';
import { isDeadHereClaimant } from './claimant';
import type { SchedulerRepository } from './repository';
import type { RunnerLog } from './runner';

/**
 * How long a lease lasts unless renewed: a server on another host that died while planning holds up
 * the others this long at most (one on this host is taken over at once).
 */
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
      log: RunnerLog;
      /** Whether a holder is a server known to be dead (servers table); its lease is taken at once. */
      claimantIsDead?: (claimant: string) => Promise<boolean>;
    },
  ) {}

  async hold<T>(plan: () => Promise<T>): Promise<T> {
    while (!(await this.take())) await sleep(RETRY_MS);
    const renewal = setInterval(
      () => void this.take().catch((error: unknown) => this.leaseError(error)),
      PLANNING_LEASE_MS / 3,
    );
    renewal.unref();
    try {
      return await plan();
    } finally {
      clearInterval(renewal);
      // Not released (database down), the lease lapses after PLANNING_LEASE_MS: plans wait, none is lost.
      await this.deps.repository
        .releasePlanningLease(this.deps.holder)
        .catch((error: unknown) => this.leaseError(error));
    }
  }

  private async take(): Promise<boolean> {
    const { repository, holder, clock, log } = this.deps;
    const now = clock.now();
    const until = new Date(now.getTime() + PLANNING_LEASE_MS).toISOString();
    if (await repository.takePlanningLease(holder, now.toISOString(), until)) return true;
    // A server restarted after it died mid-plan does not wait out its own former lease.
    const current = await repository.planningLeaseHolder();
    if (current === null || !(isDeadHereClaimant(current) || (await this.deps.claimantIsDead?.(current)))) return false;
    const taken = await repository.takePlanningLease(holder, now.toISOString(), until, current);
    if (taken) log.warn({ deadHolder: current }, 'took over the planning lease of a scheduler process that is gone');
    return taken;
  }

  private leaseError(error: unknown): void {
    this.deps.log.error({ err: error }, 'the planning lease could not be renewed or released; it lapses by itself');
  }
}
