import { z } from 'zod';
import { envelope } from './common';
import { instanceSchema, instanceStateSchema, type Instance } from './instances';
import { searchSortShape } from './list-query';

/*
 * The Instances table at fleet size: GET /api/instances/page answers one page of the fleet and the
 * count of every match. SPEC.md's GET /api/instances/ keeps its whole list (and the live feed its pushes).
 */

export const INSTANCE_SORT_FIELDS = ['name', 'id', 'state', 'instance_type', 'runtime_hours', 'mosque_id', 'launch_time'] as const;
export type InstanceSortField = (typeof INSTANCE_SORT_FIELDS)[number];
export const INSTANCE_PAGE_MAX = 1000;

/** `q`: part of the name, our id, the provider's id, the mosque's id or its name; newest launch first unless sorted. */
export const instancesPageQuerySchema = z.strictObject({
  ...searchSortShape(INSTANCE_SORT_FIELDS),
  limit: z.coerce.number().int().min(1).max(INSTANCE_PAGE_MAX).default(10),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  state: instanceStateSchema.optional(),
});
export type InstancesPageQuery = z.input<typeof instancesPageQuerySchema>;
export type ParsedInstancesPageQuery = z.output<typeof instancesPageQuerySchema>;

export const instancesPageResponseSchema = envelope(z.object({ instances: z.array(instanceSchema), total: z.number().int() }));
export type InstancesPage = z.infer<typeof instancesPageResponseSchema>['data'];

type SortValue = string | number | null;

/** Text sorts ignore case; an ad-hoc instance has no mosque id. */
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
 * One page of a fleet list: searched (name, our id, the provider's id, the mosque's id or its name from
 * `mosqueNames`), filtered by state and sorted. The server runs it over the list GET /api/instances/ answers;
 * the console's mocks over theirs.
 */
export function instancesPageOf(fleet: readonly Instance[], query: ParsedInstancesPageQuery, mosqueNames: ReadonlyMap<string, string>): InstancesPage {
  const needle = query.q?.toLowerCase();
  const matching = fleet.filter(
    (instance) =>
      (!query.state || instance.state === query.state) &&
      (!needle ||
        [instance.name, instance.id, instance.instance_id, instance.mosque_id, instance.mosque_id ? mosqueNames.get(instance.mosque_id) : undefined].some((text) =>
          text?.toLowerCase().includes(needle),
        )),
  );
  const sign = (query.order ?? (query.sort ? 'asc' : 'desc')) === 'desc' ? -1 : 1;
  const sorted = [...matching].sort((a, b) => compare(a, b, query.sort, sign));
  return { instances: sorted.slice(query.offset, query.offset + query.limit), total: matching.length };
}
