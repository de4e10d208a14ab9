import type { Clock } from '../../lib/clock';
import type { ServerRegistry } from './registry';
import type { ServerRow, ServersRepository } from './repository';

/** Who runs the recorders of a scope now: a live server to call, or why none can be. */
export type ScopeOwner = { kind: 'server'; server: ServerRow } | { kind: 'down'; detail: string };

/**
 * Finds the live server that runs (or has adopted) the recorders of a scope other than this
 * server's own, from the servers table and the adoption leases.
 */
export class ScopeOwners {
  constructor(
    private readonly registry: ServerRegistry,
    private readonly repository: ServersRepository,
    private readonly clock: Clock,
  ) {}

  async find(scope: string): Promise<ScopeOwner> {
    const live = (await this.registry.live()).filter((row) => row.id !== this.registry.id);
    const own = live.find((row) => row.scope === scope);
    if (own) return { kind: 'server', server: own };
    const adoption = await this.repository.adopterOf(scope, this.clock.now().toISOString());
    const adopter = adoption && live.find((row) => row.id === adoption.server_id);
    if (adopter) return { kind: 'server', server: adopter };
    const last = await this.repository.lastOfScope(scope);
    return {
      kind: 'down',
      detail: last
        ? `its server ${last.id} (${last.internal_address}) has not been heard from since ${last.last_seen}; a server on its host adopts its recorders, or another server continues their recordings, within 30 s`
        : `no server running recorders of ${scope} is registered`,
    };
  }
}
