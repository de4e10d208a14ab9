import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { formChanged, useDiscardGuard } from '../../components/useDiscardGuard';
import { GENERATE_DEFAULTS, type GenerateRequest, type Mosque, type RecordingMethod } from '../../../contract/mosques';
import { useMosqueChoices } from '../../widgets/mosque-choices';

interface GenerateDialogProps {
  generating: boolean;
  onCancel: () => void;
  onGenerate: (settings: GenerateRequest) => void;
}

interface GenerateForm {
  mosques: Mosque[];
  duration: string;
  method: RecordingMethod;
  apiBaseUrl: string;
  width: string;
  height: string;
}

const positiveInt = (text: string) => (/^\d+$/.test(text.trim()) && Number(text) > 0 ? Number(text) : null);
const pairs = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 } as const;

/** "Generate Recording Configurations" (docs/reference.md sections 3 and 5, Generate settings and Generate configs). */
export function GenerateDialog({ generating, onCancel, onGenerate }: GenerateDialogProps) {
  const [initial] = useState<GenerateForm>(() => ({
    mosques: [],
    duration: String(GENERATE_DEFAULTS.duration),
    method: GENERATE_DEFAULTS.method,
    apiBaseUrl: window.location.origin,
    width: String(GENERATE_DEFAULTS.width),
    height: String(GENERATE_DEFAULTS.height),
  }));
  const [form, setForm] = useState<GenerateForm>(initial);
  const guard = useDiscardGuard({ dirty: formChanged(form, initial), busy: generating, onDiscard: onCancel });
  const set = <K extends keyof GenerateForm>(field: K, value: GenerateForm[K]) =>
    setForm((current) => ({ ...current, [field]: value }));
  // Any mosque may be named (a disabled one too), searched on the server.
  const { props: choices, more } = useMosqueChoices();

  const duration = positiveInt(form.duration);
  const width = positiveInt(form.width);
  const height = positiveInt(form.height);
  const valid = duration !== null && width !== null && height !== null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!valid || generating) return;
    onGenerate({
      mosque_ids: form.mosques.map((mosque) => mosque.mosque_id),
      duration,
      method: form.method,
      ...(form.method === 'api' && form.apiBaseUrl.trim() ? { api_base_url: form.apiBaseUrl.trim() } : {}),
      width,
      height,
    });
  };

  const number = (field: 'duration' | 'width' | 'height', label: string, value: number | null) => (
    <TextField
      label={label}
      type="number"
      value={form[field]}
      onChange={(event) => set(field, event.target.value)}
      error={value === null}
      helperText={value === null ? 'A whole number above 0' : undefined}
      slotProps={{ htmlInput: { min: 1, step: 1 } }}
      fullWidth
    />
  );

  return (
    <Dialog open onClose={guard.onClose} maxWidth="sm" fullWidth aria-labelledby="generate-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="generate-title">Generate Recording Configurations</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Autocomplete<Mosque, true>
              {...choices}
              multiple
              value={form.mosques}
              onChange={(_event, mosques) => set('mosques', mosques)}
              renderOption={({ key, ...props }, mosque) => (
                <li key={key} {...props}>
                  <Box>
                    {mosque.name}
                    <Box
                      component="span"
                      sx={{ ml: 1, color: 'text.secondary', fontFamily: 'monospace', fontSize: '0.85em' }}
                    >
                      {mosque.mosque_id}
                      {mosque.active ? '' : ' (disabled)'}
                    </Box>
                  </Box>
                </li>
              )}
              disableCloseOnSelect
              filterSelectedOptions
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Mosques"
                  helperText={more ?? 'Leave empty to include every active mosque'}
                />
              )}
            />
            {number('duration', 'Duration (seconds)', duration)}
            <TextField
              select
              label="Method"
              value={form.method}
              onChange={(event) => set('method', event.target.value as RecordingMethod)}
              fullWidth
            >
              <MenuItem value="api">API</MenuItem>
              <MenuItem value="sequential">Sequential</MenuItem>
            </TextField>
            {form.method === 'api' && (
              <TextField
                label="API Base URL"
                value={form.apiBaseUrl}
                onChange={(event) => set('apiBaseUrl', event.target.value)}
                helperText="Where the recorders report to"
                slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
                fullWidth
              />
            )}
            <Box sx={pairs}>
              {number('width', 'Width', width)}
              {number('height', 'Height', height)}
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={generating} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!valid || generating}>
            {generating ? 'Generating...' : 'Generate'}
          </Button>
        </DialogActions>
      </form>
      {guard.prompt}
    </Dialog>
  );
}
