import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { ScopeFleet, InstancesService } from '../instances';
import { parseLocalScope } from './local-scope';
import { DEAD_AFTER_MS, type ServerRegistry } from './registry';
import type { ServersRepository } from './repository';

/** How long an adoption holds without renewal (renewed at every takeover pass): a dead adopter's scope is taken over after it. */
export const ADOPTION_LEASE_MS = 15_000;

/** The data folder of a local scope on this host, else null. */
function folderOnThisHost(scope: string, host: string): string | null {
  const local = parseLocalScope(scope);
  return local?.host === host ? local.folder : null;
}

/**
 * Failover of local recorders. A server that dies (or stops) leaves its recorders running: they are
 * processes of their own, writing to its data folder. At each takeover pass (takeover.ts), every scope
 * with live rows whose servers are all dead (taken over, their leases re-checked in the same statement,
 * or stopped cleanly) is adopted by one live server on the same host (a lease in
 * scope_adoptions), which then reconciles that folder as its own: it follows the recorders to their
 * end, starts again any that died (in their folder, so they carry on their pieces), and keeps their
 * rows. As soon as a server of that scope is alive again it is handed back.
 */
export class ScopeAdoption {
  private readonly adopted = new Map<string, InstancesService>();

  constructor(
    private readonly deps: {
      registry: ServerRegistry;
      repository: ServersRepository;
      clock: Clock;
      log: FastifyBaseLogger;
      host: string;
      own: InstancesService;
      fleetOfFolder: (folder: string) => InstancesService;
    },
  ) {}

  /** One pass: take, keep or hand back adoptions, and reconcile what is adopted. */
  async pass(): Promise<void> {
    const { registry, repository, clock, own } = this.deps;
    const live = await registry.live();
    const scopes = new Set((await own.liveScopes()).filter((scope) => scope && scope !== own.scope));
    for (const scope of new Set([...scopes, ...this.adopted.keys()])) {
      const folder = folderOnThisHost(scope, this.deps.host);
      const ownerAlive = live.some((row) => row.scope === scope && row.id !== registry.id);
      if (!scopes.has(scope) || ownerAlive || !folder || !fs.existsSync(path.join(folder, 'instances'))) {
        await this.handBack(scope, ownerAlive ? 'its server is back' : 'nothing of it runs any more');
        continue;
      }
      const now = clock.now();
      const expiredBefore = new Date(now.getTime() - DEAD_AFTER_MS).toISOString();
      // Its servers are taken over first, each only if its lease ran out (a beat that lands first keeps it).
      if ((await repository.takeOverScope(scope, registry.id, now.toISOString(), expiredBefore)).owned) continue;
      if (
        !(await repository.leaseScope(
          scope,
          registry.id,
          now.toISOString(),
          new Date(now.getTime() + ADOPTION_LEASE_MS).toISOString(),
        ))
      ) {
        this.adopted.delete(scope);
        continue;
      }
      let fleet = this.adopted.get(scope);
      if (!fleet) {
        fleet = this.deps.fleetOfFolder(folder);
        this.adopted.set(scope, fleet);
        this.deps.log.warn(
          { scope },
          'adopted the recorders of a server that is gone (same host): following them from its data folder',
        );
      }
      await fleet.reconcile();
    }
  }

  private async handBack(scope: string, why: string): Promise<void> {
    const fleet = this.adopted.get(scope);
    if (!fleet) return;
    this.adopted.delete(scope);
    await fleet.idle();
    await this.deps.repository.releaseScope(scope, this.deps.registry.id);
    this.deps.log.info({ scope, why }, 'handed back adopted recorders');
  }

  /** The adopted fleet of a scope, as another server's calls reach it. */
  fleetOf(scope: string): ScopeFleet | undefined {
    const fleet = this.adopted.get(scope);
    return (
      fleet && {
        terminate: (ids, reason) => fleet.terminateHere(ids, reason),
        logs: async (id, lines) => (await fleet.logs(id, lines)).logs,
      }
    );
  }

  fleets(): InstancesService[] {
    return [...this.adopted.values()];
  }

  /** Lets go of every adoption at once (a clean stop): another live server takes them at its next beat. */
  async close(): Promise<void> {
    for (const scope of [...this.adopted.keys()]) await this.handBack(scope, 'this server is stopping');
  }
}
