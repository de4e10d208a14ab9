import Box from '@mui/material/Box';
import { useCallback } from 'react';
import { instanceStateSchema } from '../../../contract/instances';
import { FilterSelect } from '../../components/FilterSelect';
import { SearchField } from '../../components/SearchField';
import type { ParamUpdate } from '../../lib/url-params';
import type { InstancesView } from './instances-view';

const STATE_OPTIONS = instanceStateSchema.options.map(
  (state) => [state, state.charAt(0).toUpperCase() + state.slice(1)] as const,
);

/** Search (name, id, mosque) and the state filter of the Instances table; every change starts again from the first page. */
export function InstancesToolbar({ view, onView }: { view: InstancesView; onView: (update: ParamUpdate) => void }) {
  const search = useCallback((q: string) => onView({ q, page: null }), [onView]);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2 }}>
      <SearchField label="Search instances" placeholder="Name, ID or mosque" value={view.q} onSearch={search} />
      <FilterSelect
        label="State"
        value={view.state}
        options={STATE_OPTIONS}
        onChange={(state) => onView({ state, page: null })}
      />
    </Box>
  );
}
