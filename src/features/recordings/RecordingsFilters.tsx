import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { recordingStatusSchema, type RecordingStatus } from '../../../contract/instances';
import { useMosques } from '../../api/config';
import { RECORDING_OUTCOMES } from '../../lib/recording-outcome';

export interface RecordingsFilterValues {
  mosque_id: string;
  friday: string;
  status: RecordingStatus | '';
}

export const NO_FILTERS: RecordingsFilterValues = { mosque_id: '', friday: '', status: '' };

/** Mosque (by name), Friday and outcome: each narrows the list on the server. */
export function RecordingsFilters({ value, onChange }: { value: RecordingsFilterValues; onChange: (next: RecordingsFilterValues) => void }) {
  const mosques = useMosques();
  const set = (patch: Partial<RecordingsFilterValues>) => onChange({ ...value, ...patch });
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
      <TextField select label="Mosque" size="small" value={value.mosque_id} onChange={(e) => set({ mosque_id: e.target.value })} sx={{ minWidth: 220 }}>
        <MenuItem value="">All mosques</MenuItem>
        {(mosques.data ?? []).map((mosque) => (
          <MenuItem key={mosque.mosque_id} value={mosque.mosque_id}>
            {mosque.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Friday"
        type="date"
        size="small"
        value={value.friday}
        onChange={(e) => set({ friday: e.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField select label="Outcome" size="small" value={value.status} onChange={(e) => set({ status: e.target.value as RecordingStatus | '' })} sx={{ minWidth: 160 }}>
        <MenuItem value="">All outcomes</MenuItem>
        {recordingStatusSchema.options.map((status) => (
          <MenuItem key={status} value={status}>
            {RECORDING_OUTCOMES[status].label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
