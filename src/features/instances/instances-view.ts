import { INSTANCE_SORT_FIELDS, type InstanceSortField, type InstancesPageQuery } from '../../../contract/instance-list';
import { instanceStateSchema, type InstanceState } from '../../../contract/instances';
import { listQueryOfView, listViewFromParams, oneOf, type ListView } from '../../lib/list-view';

/** What the Instances table shows, as kept in the address: the list's view and `&state=running`. */
export interface InstancesView extends ListView<InstanceSortField> {
  state: InstanceState | null;
}

/** Reads the view from the address; not sorted by a column, the newest launch is first. */
export function instancesViewFromParams(params: URLSearchParams): InstancesView {
  return {
    ...listViewFromParams(params, INSTANCE_SORT_FIELDS, 'desc'),
    state: oneOf(params.get('state'), instanceStateSchema.options),
  };
}

export function instancesQueryOfView(view: InstancesView): InstancesPageQuery {
  return { ...listQueryOfView(view), ...(view.state && { state: view.state }) };
}
