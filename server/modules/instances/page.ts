import type { InstanceSortField, InstancesPage, ParsedInstancesPageQuery } from '../../../contract/instance-list';
import type { Instance } from '../../../contract/instances';

/** The mosques' names by id, for the ids asked (a deleted mosque is absent). */
export type MosqueNames = (ids: string[]) => Promise<Map<string, string>>;

type SortValue = string | number | null;

/** Text sorts ignore case; a fleet instance without a mosque (ad-hoc) has no mosque id. */
function sortValue(instance: Instance, field: InstanceSortField): SortValue {
  const value = instance[field];
  return typeof value === 'string' && field !== 'launch_time' && field !== 'state' ? value.toLowerCase() : value;
}

/** By the field (empty values last in either direction), then by launch and id in the same direction. */
function compare(a: Instance, b: Instance, field: InstanceSortField | undefined, sign: number): number {
  for (const key of [...(field ? [field] : []), 'launch_time', 'id'] as const) {
    const [left, right] = [sortValue(a, key), sortValue(b, key)];
    if (left === right) continue;
    if (left === null || right === null) return left === null ? 1 : -1;
    return (left < right ? -1 : 1) * sign;
  }
  return 0;
}

/**
 * One page of the fleet as GET /api/instances/ lists it (the service's shared list, read in memory: it is
 * the same list every console polls and the live feed pushes), searched, filtered by state and sorted.
 */
export async function instancesPage(fleet: Instance[], query: ParsedInstancesPageQuery, mosqueNames: MosqueNames): Promise<InstancesPage> {
  const needle = query.q?.toLowerCase();
  let matching = query.state ? fleet.filter((instance) => instance.state === query.state) : fleet;
  if (needle) {
    const names = await mosqueNames([...new Set(matching.flatMap((instance) => (instance.mosque_id ? [instance.mosque_id] : [])))]);
    matching = matching.filter((instance) =>
      [instance.name, instance.id, instance.instance_id, instance.mosque_id, instance.mosque_id ? names.get(instance.mosque_id) : undefined].some((text) => text?.toLowerCase().includes(needle)),
    );
  }
  const sign = (query.order ?? (query.sort ? 'asc' : 'desc')) === 'desc' ? -1 : 1;
  const sorted = [...matching].sort((a, b) => compare(a, b, query.sort, sign));
  return { instances: sorted.slice(query.offset, query.offset + query.limit), total: matching.length };
}
