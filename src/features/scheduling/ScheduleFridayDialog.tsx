import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useDiscardGuard } from '../../components/useDiscardGuard';
import type { Mosque } from '../../../contract/mosques';
import type { ScheduleRequest } from '../../../contract/scheduler';
import { useMosqueChoices } from '../../widgets/mosque-choices';

interface ScheduleFridayDialogProps {
  scheduling: boolean;
  onCancel: () => void;
  onSchedule: (request: ScheduleRequest) => void;
}

/** What keeps a mosque from being scheduled, shown beside it in the list. */
function missing(mosque: Mosque): string | null {
  if (!mosque.ID_token) return 'no stream identifier';
  if (mosque.fixed_jumuah_time === null && (mosque.latitude === null || mosque.longitude === null))
    return 'no coordinates';
  return null;
}

/** "Schedule Friday Recordings" (docs/reference.md section 3, Schedule request): force refresh and a mosque filter (empty: all). */
export function ScheduleFridayDialog({ scheduling, onCancel, onSchedule }: ScheduleFridayDialogProps) {
  const [forceRefresh, setForceRefresh] = useState(false);
  const [chosen, setChosen] = useState<Mosque[]>([]);
  const guard = useDiscardGuard({ dirty: forceRefresh || chosen.length > 0, busy: scheduling, onDiscard: onCancel });
  // Only active mosques can be picked (the scheduler plans nothing else), searched on the server.
  const { props: choices, more } = useMosqueChoices({ activeOnly: true });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (scheduling) return;
    const mosqueIds = chosen.map((mosque) => mosque.mosque_id);
    onSchedule({ forceRefresh, mosqueFilter: mosqueIds.length > 0 ? mosqueIds : null });
  };

  return (
    <Dialog open onClose={guard.onClose} maxWidth="sm" fullWidth aria-labelledby="schedule-friday-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="schedule-friday-title">Schedule Friday Recordings</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            One recording per mosque for its coming Friday, starting 20 minutes before the Friday prayer. Mosques
            already scheduled are left as they are.
          </DialogContentText>
          <Stack spacing={2}>
            <Autocomplete<Mosque, true>
              {...choices}
              multiple
              value={chosen}
              onChange={(_event, mosques) => setChosen(mosques)}
              renderOption={({ key, ...props }, mosque) => {
                const problem = missing(mosque);
                return (
                  <li key={key} {...props}>
                    <Box>
                      {mosque.name}
                      <Box component="span" sx={{ ml: 1, color: 'text.secondary', fontSize: '0.85em' }}>
                        {mosque.timezone ?? ''}
                        {problem ? ` (${problem})` : ''}
                      </Box>
                    </Box>
                  </li>
                );
              }}
              disableCloseOnSelect
              filterSelectedOptions
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Mosques"
                  helperText={more ?? 'Leave empty to schedule every active mosque'}
                />
              )}
            />
            <Box>
              <FormControlLabel
                control={
                  <Checkbox checked={forceRefresh} onChange={(event) => setForceRefresh(event.target.checked)} />
                }
                label="Force refresh"
              />
              <FormHelperText sx={{ mt: 0 }}>
                Recompute the prayer times of recordings that have not started yet
              </FormHelperText>
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={scheduling} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={scheduling}>
            {scheduling ? 'Scheduling...' : 'Schedule'}
          </Button>
        </DialogActions>
      </form>
      {guard.prompt}
    </Dialog>
  );
}
