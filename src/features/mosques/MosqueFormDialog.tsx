import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useCallback, useRef, useState, type FormEvent } from 'react';
import {
  broadcastStatusSchema,
  calculationMethodSchema,
  type BroadcastStatus,
  type CalculationMethod,
} from '../../../contract/mosques';
import { useNewMosqueId } from '../../api/config';
import { formChanged, useDiscardGuard } from '../../components/useDiscardGuard';
import { LanguagesField } from './LanguagesField';
import { LocationFields } from './LocationFields';
import { METHOD_LABELS } from './methods';
import {
  hasErrors,
  parseCoordinate,
  validateMosqueForm,
  type MosqueFormErrors,
  type MosqueFormValues,
} from './mosque-form';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { useCoordinateLookup } from './useCoordinateLookup';

const STATUS_LABELS: Record<BroadcastStatus, string> = { inactive: 'Inactive', playing: 'Playing', ended: 'Ended' };

interface MosqueFormDialogProps {
  mode: 'add' | 'edit';
  initial: MosqueFormValues;
  saving: boolean;
  onCancel: () => void;
  /** With the mosque_id filled in (the Add dialog's generated one). */
  onSubmit: (values: MosqueFormValues) => void;
  /** The server's sentences for the fields it refused, shown beside each field until it is edited. */
  serverErrors?: MosqueFormErrors;
}

export const UNSCHEDULABLE_WARNING =
  'Without coordinates this mosque cannot be scheduled: no Friday prayer time can be computed for it, and it will be reported as unschedulable. Type its latitude and longitude, or save it without them.';

/** No refusal from the server: one object, since a new one is read as a new refusal (a `{}` default made each render start another). */
const NOT_REFUSED: MosqueFormErrors = {};

const pairs = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 } as const;

/** "Add New Mosque" / "Edit Mosque" (docs/reference.md sections 2, 3 and 5). Mount it with a key per opening. */
export function MosqueFormDialog({
  mode,
  initial,
  saving,
  onCancel,
  onSubmit,
  serverErrors = NOT_REFUSED,
}: MosqueFormDialogProps) {
  const editing = mode === 'edit';
  const [values, setValues] = useState<MosqueFormValues>(initial);
  const [touched, setTouched] = useState<ReadonlySet<keyof MosqueFormValues>>(new Set());
  const [idNonce, setIdNonce] = useState(0);
  const newId = useNewMosqueId(idNonce, !editing);
  const mosqueId = editing ? initial.mosque_id : (newId.data ?? '');

  const apply = useCallback(
    (patch: Partial<MosqueFormValues>) => setValues((current) => ({ ...current, ...patch })),
    [],
  );
  // The fields the operator typed into since the last lookup began: its answer, however late, leaves them be
  // (a time zone typed while the place was being looked up was overwritten by the place's).
  const typedSinceLookup = useRef(new Set<keyof MosqueFormValues>());
  const applyLookup = useCallback(
    (patch: Partial<MosqueFormValues>) =>
      apply(
        Object.fromEntries(
          Object.entries(patch).filter(([field]) => !typedSinceLookup.current.has(field as keyof MosqueFormValues)),
        ) as Partial<MosqueFormValues>,
      ),
    [apply],
  );
  const lookup = useCoordinateLookup(applyLookup);
  const [warnedUnlocated, setWarnedUnlocated] = useState(false);
  const [editedSinceRefusal, setEditedSinceRefusal] = useState<ReadonlySet<keyof MosqueFormValues>>(new Set());
  const [refusal, setRefusal] = useState(serverErrors);
  if (refusal !== serverErrors) {
    // A new answer from the server: its field errors show again until their fields are edited.
    setRefusal(serverErrors);
    setEditedSinceRefusal(new Set());
  }
  const set = <K extends keyof MosqueFormValues>(field: K, value: MosqueFormValues[K]) => {
    apply({ [field]: value } as Partial<MosqueFormValues>);
    setEditedSinceRefusal((current) => (current.has(field) ? current : new Set(current).add(field)));
  };
  const touch = (field: keyof MosqueFormValues) =>
    setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));

  const complete = { ...values, mosque_id: mosqueId };
  const stillRefused = Object.fromEntries(
    Object.entries(serverErrors).filter(([field]) => !editedSinceRefusal.has(field as keyof MosqueFormValues)),
  );
  const errors: MosqueFormErrors = { ...stillRefused, ...validateMosqueForm(complete, editing) };
  const shown = (field: 'name' | 'languages') =>
    touched.has(field) || field in stillRefused ? errors[field] : undefined;
  const busy = saving || lookup.extracting || lookup.geocoding;

  const changeLocation = (
    field: 'google_maps_url' | 'latitude' | 'longitude' | 'timezone' | 'city' | 'district' | 'country',
    value: string,
  ) => {
    set(field, value);
    if (field === 'google_maps_url' || field === 'latitude' || field === 'longitude') {
      typedSinceLookup.current = new Set();
      setWarnedUnlocated(false);
    } else typedSinceLookup.current.add(field);
    if (field === 'google_maps_url') lookup.linkChanged(value);
    if (field === 'latitude') lookup.coordinatesChanged(parseCoordinate(value), parseCoordinate(values.longitude));
    if (field === 'longitude') lookup.coordinatesChanged(parseCoordinate(values.latitude), parseCoordinate(value));
  };

  // A link that could not be resolved leaves the mosque without coordinates, hence without a prayer time:
  // the first Save says so plainly and asks for them; a second one saves it as it is.
  const unlocated =
    lookup.linkProblem !== null &&
    (parseCoordinate(values.latitude) === null || parseCoordinate(values.longitude) === null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (hasErrors(errors) || busy) return;
    if (unlocated && !warnedUnlocated) setWarnedUnlocated(true);
    else onSubmit(complete);
  };
  const guard = useDiscardGuard({ dirty: formChanged(values, initial), busy: saving, onDiscard: onCancel });

  const idHelper = editing
    ? 'The ID cannot change'
    : newId.isError
      ? 'Could not get a new ID: try again'
      : 'Generated automatically; it cannot change later';

  return (
    <Dialog open onClose={guard.onClose} maxWidth="md" fullWidth aria-labelledby="mosque-form-title" scroll="paper">
      <Box
        component="form"
        onSubmit={submit}
        noValidate
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogTitle id="mosque-form-title">{editing ? 'Edit Mosque' : 'Add New Mosque'}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label="Mosque ID"
              value={mosqueId}
              placeholder={newId.isFetching ? 'Generating...' : undefined}
              required={!editing}
              error={!editing && newId.isError}
              helperText={idHelper}
              slotProps={{
                inputLabel: { shrink: true },
                htmlInput: { readOnly: true, 'aria-readonly': true, sx: { fontFamily: 'monospace' } },
                input: {
                  endAdornment: editing ? undefined : (
                    <InputAdornment position="end">
                      <Tooltip title="Generate another ID" {...TOOLTIP_DELAYS}>
                        <span>
                          <IconButton
                            aria-label="Generate another ID"
                            onClick={() => setIdNonce((n) => n + 1)}
                            disabled={newId.isFetching}
                            edge="end"
                          >
                            <RefreshIcon />
                          </IconButton>
                        </span>
                      </Tooltip>
                    </InputAdornment>
                  ),
                },
              }}
              fullWidth
            />
            <Box sx={pairs}>
              <TextField
                label="Name (English)"
                value={values.name}
                onChange={(event) => {
                  set('name', event.target.value);
                  touch('name');
                }}
                onBlur={() => touch('name')}
                required
                error={Boolean(shown('name'))}
                helperText={shown('name') ?? ' '}
                fullWidth
              />
              <TextField
                label="Name (Arabic)"
                value={values.name_ar}
                onChange={(event) => set('name_ar', event.target.value)}
                helperText=" "
                slotProps={{ htmlInput: { dir: 'rtl', lang: 'ar' } }}
                fullWidth
              />
            </Box>
            <LanguagesField
              value={values.languages}
              onChange={(codes) => {
                set('languages', codes);
                touch('languages');
              }}
              onBlur={() => touch('languages')}
              error={shown('languages') ?? (values.languages.length > 0 ? errors.languages : undefined)}
            />
            <Divider textAlign="left">
              <Typography variant="overline" color="textSecondary">
                Location
              </Typography>
            </Divider>
            <LocationFields
              values={values}
              errors={errors}
              extracting={lookup.extracting}
              geocoding={lookup.geocoding}
              problems={{ link: lookup.linkProblem, place: lookup.placeProblem, timezone: lookup.timezoneProblem }}
              onChange={changeLocation}
            />
            {unlocated && warnedUnlocated && <Alert severity="warning">{UNSCHEDULABLE_WARNING}</Alert>}
            <Divider textAlign="left">
              <Typography variant="overline" color="textSecondary">
                Broadcast and prayer time
              </Typography>
            </Divider>
            <TextField
              label="ID Token (stream source)"
              value={values.ID_token}
              onChange={(event) => set('ID_token', event.target.value)}
              error={Boolean(errors.ID_token)}
              helperText={
                errors.ID_token ?? 'A stream URL, or the channel identifier that the stream URL template completes'
              }
              slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
              fullWidth
            />
            <Box sx={pairs}>
              <TextField
                select
                label="Broadcast Status"
                value={values.broadcast_status}
                onChange={(event) => set('broadcast_status', event.target.value as BroadcastStatus)}
                fullWidth
              >
                {broadcastStatusSchema.options.map((status) => (
                  <MenuItem key={status} value={status}>
                    {STATUS_LABELS[status]}
                  </MenuItem>
                ))}
              </TextField>
              <FormControlLabel
                control={<Switch checked={values.active} onChange={(event) => set('active', event.target.checked)} />}
                label="Active"
              />
            </Box>
            <Box sx={pairs}>
              <TextField
                label="Fixed Jumu'ah time (optional)"
                type="time"
                value={values.fixed_jumuah_time}
                onChange={(event) => set('fixed_jumuah_time', event.target.value)}
                error={Boolean(errors.fixed_jumuah_time)}
                helperText={errors.fixed_jumuah_time ?? 'Local time; leave empty to use the computed Dhuhr'}
                slotProps={{ inputLabel: { shrink: true } }}
                fullWidth
              />
              <TextField
                select
                label="Calculation Method"
                value={values.calculation_method}
                onChange={(event) => set('calculation_method', event.target.value as CalculationMethod | '')}
                helperText="Used for the computed Friday prayer time"
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                fullWidth
              >
                <MenuItem value="">By country (automatic)</MenuItem>
                {calculationMethodSchema.options.map((method) => (
                  <MenuItem key={method} value={method}>
                    {METHOD_LABELS[method]}
                  </MenuItem>
                ))}
              </TextField>
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onCancel} disabled={saving} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy || hasErrors(errors)}>
            {unlocated && warnedUnlocated ? 'Save without coordinates' : editing ? 'Update Mosque' : 'Add Mosque'}
          </Button>
        </DialogActions>
      </Box>
      {guard.prompt}
    </Dialog>
  );
}
