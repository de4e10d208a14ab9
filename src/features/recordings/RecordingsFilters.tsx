import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useCallback } from 'react';
import { recordingStatusSchema } from '../../../contract/instances';
import { FilterSelect } from '../../components/FilterSelect';
import { SearchField } from '../../components/SearchField';
import { RECORDING_OUTCOMES } from '../../lib/recording-outcome';
import type { ParamUpdate } from '../../lib/url-params';
import type { RecordingsView } from './recordings-view';

const OUTCOME_OPTIONS = recordingStatusSchema.options.map(
  (status) => [status, RECORDING_OUTCOMES[status].label] as const,
);

const CONTENT_OPTIONS = [['1', 'Content warnings']] as const;

/** Search (mosque name or id), day (a Friday, or a one-off's own), outcome and content warnings: each narrows the list on the server and starts again from the first page. */
export function RecordingsFilters({ view, onView }: { view: RecordingsView; onView: (update: ParamUpdate) => void }) {
  const search = useCallback((q: string) => onView({ q, page: null }), [onView]);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2 }}>
      <SearchField
        label="Search recordings"
        placeholder="Mosque name or ID, recording ID"
        value={view.q}
        onSearch={search}
      />
      <TextField
        label="Day"
        type="date"
        size="small"
        value={view.friday ?? ''}
        onChange={(e) => onView({ friday: e.target.value, page: null })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <FilterSelect
        label="Outcome"
        value={view.status}
        options={OUTCOME_OPTIONS}
        onChange={(status) => onView({ status, page: null })}
      />
      <FilterSelect
        label="Content"
        value={view.contentWarnings ? '1' : null}
        options={CONTENT_OPTIONS}
        onChange={(warned) => onView({ content_warnings: warned, page: null })}
      />
    </Box>
  );
}
