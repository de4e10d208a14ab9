import Box from '@mui/material/Box';
import { useCallback } from 'react';
import { FilterSelect } from '../../components/FilterSelect';
import { SearchField } from '../../components/SearchField';
import type { ParamUpdate } from '../../lib/url-params';
import type { MosqueListView } from './mosque-list-view';

interface MosquesToolbarProps {
  view: MosqueListView;
  onView: (update: ParamUpdate) => void;
}

/** Search and filters of the mosque table; every change starts again from the first page. */
export function MosquesToolbar({ view, onView }: MosquesToolbarProps) {
  const search = useCallback((q: string) => onView({ q, page: null }), [onView]);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, p: 2, pb: 1 }}>
      <SearchField label="Search mosques" placeholder="Name, ID, city or country" value={view.q} onSearch={search} />
      <FilterSelect
        label="Status"
        value={view.active}
        options={STATUS_OPTIONS}
        onChange={(active) => onView({ active, page: null })}
      />
      <FilterSelect
        label="Broadcast"
        value={view.broadcast}
        options={BROADCAST_OPTIONS}
        onChange={(broadcast) => onView({ broadcast, page: null })}
      />
    </Box>
  );
}

const STATUS_OPTIONS = [
  ['true', 'Enabled'],
  ['false', 'Disabled'],
] as const;
const BROADCAST_OPTIONS = [
  ['inactive', 'Inactive'],
  ['playing', 'Playing'],
  ['ended', 'Ended'],
] as const;
