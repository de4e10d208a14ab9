import { z } from 'zod';
import { envelope } from './common';
import { instanceSchema, instanceStateSchema, type Instance } from './instances';
import { pageInMemory, searchSortShape } from './list-query';

/*
 * The Instances table at fleet size: GET /api/instances/page answers one page of the fleet and the
 * count of every match. docs/reference.md's GET /api/instances/ keeps its whole list (and the live feed its pushes).
 */

export const INSTANCE_SORT_FIELDS = [
  'name',
  'id',
  'state',
  'instance_type',
  'runtime_hours',
  'mosque_id',
  'launch_time',
] as const;
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

export const instancesPageResponseSchema = envelope(
  z.object({ instances: z.array(instanceSchema), total: z.number().int() }),
);
export type InstancesPage = z.infer<typeof instancesPageResponseSchema>['data'];

/**
 * One page of a fleet list: searched (name, our id, the provider's id, the mosque's id or its name from
 * `mosqueNames`), filtered by state and sorted. The server runs it over the list GET /api/instances/ answers;
 * the console's mocks over theirs.
 */
export function instancesPageOf(
  fleet: readonly Instance[],
  query: ParsedInstancesPageQuery,
  mosqueNames: ReadonlyMap<string, string>,
): InstancesPage {
  const fleetOnState = query.state ? fleet.filter((instance) => instance.state === query.state) : fleet;
  const { rows, total } = pageInMemory(fleetOnState, query, {
    searched: (instance) => [
      instance.name,
      instance.id,
      instance.instance_id,
      instance.mosque_id,
      instance.mosque_id ? mosqueNames.get(instance.mosque_id) : undefined,
    ],
    // Text sorts ignore case; the state and the launch instant sort as they are.
    sortValue: (instance, field) => {
      const value = instance[field];
      return typeof value === 'string' && field !== 'launch_time' && field !== 'state' ? value.toLowerCase() : value;
    },
    ties: ['launch_time', 'id'],
    defaultOrder: 'desc',
  });
  return { instances: rows, total };
}
