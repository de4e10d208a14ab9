import { instancesPageOf, type InstancesPage, type ParsedInstancesPageQuery } from '../../../contract/instance-list';
import type { Instance } from '../../../contract/instances';

/** The mosques' names by id, for the ids asked (a deleted mosque is absent). */
export type MosqueNames = (ids: string[]) => Promise<Map<string, string>>;

/**
 * One page of the fleet as GET /api/instances/ lists it (the service's shared list, read in memory: it is
 * the same list every console polls and the live feed pushes), searched, filtered by state and sorted.
 */
export async function instancesPage(
  fleet: Instance[],
  query: ParsedInstancesPageQuery,
  mosqueNames: MosqueNames,
): Promise<InstancesPage> {
  const names = query.q
    ? await mosqueNames([...new Set(fleet.flatMap((instance) => (instance.mosque_id ? [instance.mosque_id] : [])))])
    : new Map<string, string>();
  return instancesPageOf(fleet, query, names);
}
