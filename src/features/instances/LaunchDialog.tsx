import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import RocketLaunchIcon from '@mui/icons-material/RocketLaunch';
import { useState, type FormEvent } from 'react';
import type { LaunchConfigInput } from '../../../contract/instances';
import { useDemoStreamUrl } from '../../api/instances';
import { formChanged, useDiscardGuard } from '../../components/useDiscardGuard';
import { MosquePicker } from '../../widgets/MosquePicker';
import { StreamTest } from '../../widgets/StreamTest';
import type { FieldErrors } from '../../lib/field-errors';
import {
  canLaunch,
  DEFAULT_LAUNCH_FORM,
  LAUNCH_METHODS,
  launchConfig,
  launchFormErrors,
  type LaunchFormValues,
} from './launch-form';

interface LaunchDialogProps {
  busy: boolean;
  /** The last launch's failure, shown in the dialog (which stays open so nothing typed is lost). */
  error: string | null;
  /** The server's sentences for the fields it refused, shown beside each field until it is edited. */
  serverErrors?: FieldErrors;
  onDismissError: () => void;
  onCancel: () => void;
  onLaunch: (config: LaunchConfigInput) => void;
}

/** The launch form (docs/reference.md sections 3 and 5): Stream URL required, the rest with the spec's defaults. Mount per opening. */
export function LaunchDialog({
  busy,
  error,
  serverErrors = {},
  onDismissError,
  onCancel,
  onLaunch,
}: LaunchDialogProps) {
  const [values, setValues] = useState<LaunchFormValues>(DEFAULT_LAUNCH_FORM);
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const [urlTouched, setUrlTouched] = useState(false);
  const checks = launchFormErrors(values);
  const errorOf = (field: keyof LaunchFormValues) =>
    (field === 'url' && !urlTouched ? undefined : checks[field]) ??
    (edited.has(field) ? undefined : serverErrors[field]);
  // Field errors are shown in place; the banner is left for what belongs to no field.
  const banner = Object.keys(serverErrors).some((field) => field in values) ? null : error;
  const demo = useDemoStreamUrl();
  const demoUrl = demo.data ?? null;
  const set = (field: keyof LaunchFormValues) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setEdited((current) => new Set(current).add(field));
  };

  const guard = useDiscardGuard({ dirty: formChanged(values, DEFAULT_LAUNCH_FORM), busy, onDiscard: onCancel });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canLaunch(values, busy)) onLaunch(launchConfig(values));
  };

  const helper = demoUrl ? (
    <>
      Built-in test broadcast:{' '}
      <Link
        component="button"
        type="button"
        onClick={() => setValues((current) => ({ ...current, url: demoUrl }))}
        sx={{ verticalAlign: 'baseline', wordBreak: 'break-all', textAlign: 'left' }}
        aria-label={`Use the test broadcast ${demoUrl}`}
      >
        {demoUrl}
      </Link>
    </>
  ) : (
    'HLS, DASH, RTMP, RTSP, SRT or HTTP media URL of the live stream'
  );

  return (
    <Dialog open onClose={guard.onClose} maxWidth="sm" fullWidth aria-labelledby="launch-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="launch-dialog-title">Launch Instance</DialogTitle>
        <DialogContent>
          {banner && (
            <Alert severity="error" onClose={onDismissError} sx={{ mb: 2 }}>
              {banner}
            </Alert>
          )}
          <Grid container spacing={2} sx={{ pt: 1 }}>
            <Grid size={12}>
              <TextField
                label="Stream URL"
                value={values.url}
                onChange={set('url')}
                onBlur={() => setUrlTouched(true)}
                required
                fullWidth
                autoFocus
                placeholder="https://example.com/live/stream.m3u8"
                error={Boolean(errorOf('url'))}
                helperText={errorOf('url') ?? helper}
                slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
              />
            </Grid>
            <Grid size={12}>
              <StreamTest request={{ url: values.url }} />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <NumberField
                label="Duration (seconds)"
                value={values.duration}
                onChange={set('duration')}
                error={errorOf('duration')}
                min={1}
                step={1}
              />
            </Grid>
            <Grid size={{ xs: 6, sm: 4 }}>
              <NumberField
                label="Width"
                value={values.width}
                onChange={set('width')}
                error={errorOf('width')}
                min={16}
                step={2}
              />
            </Grid>
            <Grid size={{ xs: 6, sm: 4 }}>
              <NumberField
                label="Height"
                value={values.height}
                onChange={set('height')}
                error={errorOf('height')}
                min={16}
                step={2}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 8 }}>
              <MosquePicker
                value={values.mosque_id}
                onChange={(mosqueId) => set('mosque_id')({ target: { value: mosqueId } })}
                error={errorOf('mosque_id')}
                helperText="Optional: search by name, id or city"
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField select label="Method" value={values.method} onChange={set('method')} fullWidth>
                {LAUNCH_METHODS.map((method) => (
                  <MenuItem key={method} value={method}>
                    {method}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField select label="Start" value={values.start} onChange={set('start')} fullWidth>
                <MenuItem value="now">Now</MenuItem>
                <MenuItem value="at">At a chosen time</MenuItem>
              </TextField>
            </Grid>
            {values.start === 'at' && (
              <Grid size={{ xs: 12, sm: 8 }}>
                <TextField
                  label="Start at (your local time)"
                  type="datetime-local"
                  value={values.start_at}
                  onChange={set('start_at')}
                  required
                  fullWidth
                  error={Boolean(errorOf('start_at'))}
                  helperText={
                    errorOf('start_at') ??
                    'The recording window opens then; its machine is launched the lead time before'
                  }
                  slotProps={{ inputLabel: { shrink: true } }}
                />
              </Grid>
            )}
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={busy} color="inherit">
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!canLaunch(values, busy)}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <RocketLaunchIcon />}
          >
            Launch
          </Button>
        </DialogActions>
      </form>
      {guard.prompt}
    </Dialog>
  );
}

interface NumberFieldProps {
  label: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error: string | undefined;
  min: number;
  step: number;
}

function NumberField({ label, value, onChange, error, min, step }: NumberFieldProps) {
  return (
    <TextField
      label={label}
      type="number"
      value={value}
      onChange={onChange}
      fullWidth
      error={Boolean(error)}
      helperText={error}
      slotProps={{ htmlInput: { min, step } }}
    />
  );
}
