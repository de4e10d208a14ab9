import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import type { AmiCreateRequest } from '../../../contract/ami';
import type { Instance } from '../../../contract/instances';
import { formChanged, useDiscardGuard } from '../../components/useDiscardGuard';
import { amiCreatePayload, canCreateAmi, DEFAULT_AMI_FORM, type AmiFormValues } from './ami-form';

interface CreateAmiDialogProps {
  instances: Instance[];
  instancesLoading: boolean;
  busy: boolean;
  /** The server's reason for the last failure, shown in the dialog (which stays open). */
  error: string | null;
  onCancel: () => void;
  onCreate: (body: AmiCreateRequest) => void;
}

/** "Create New AMI" (docs/reference.md section 5, Create AMI). Mount it per opening. */
export function CreateAmiDialog({
  instances,
  instancesLoading,
  busy,
  error,
  onCancel,
  onCreate,
}: CreateAmiDialogProps) {
  const [values, setValues] = useState<AmiFormValues>(DEFAULT_AMI_FORM);
  const guard = useDiscardGuard({ dirty: formChanged(values, DEFAULT_AMI_FORM), busy, onDiscard: onCancel });
  const set = (field: keyof AmiFormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canCreateAmi(values, busy)) onCreate(amiCreatePayload(values));
  };

  return (
    <Dialog open onClose={guard.onClose} maxWidth="sm" fullWidth aria-labelledby="create-ami-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="create-ami-title">Create New AMI</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label="Instance"
              value={values.instance_id}
              onChange={set('instance_id')}
              required
              fullWidth
              helperText={
                instancesLoading
                  ? 'Loading instances...'
                  : instances.length === 0
                    ? 'No instances to create an AMI from'
                    : 'The instance to image'
              }
            >
              {instances.map((instance) => (
                <MenuItem key={instance.id} value={instance.id}>
                  {`${instance.name} (${instance.instance_id}) - ${instance.state}`}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="AMI Name"
              value={values.name}
              onChange={set('name')}
              required
              fullWidth
              helperText="A timestamp is added to the name automatically"
              slotProps={{ htmlInput: { maxLength: 100, autoComplete: 'off' } }}
            />
            <TextField
              label="Description"
              value={values.description}
              onChange={set('description')}
              fullWidth
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: 255 } }}
            />
            <TextField
              label="Version"
              value={values.version}
              onChange={set('version')}
              required
              fullWidth
              placeholder="1.0.0"
              helperText="Semantic version, like 1.0.0"
              slotProps={{ htmlInput: { autoComplete: 'off' } }}
            />
            <Alert severity="warning">
              The instance is rebooted while the AMI is created, which interrupts a recording in progress.
            </Alert>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={busy} color="inherit">
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!canCreateAmi(values, busy)}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            Create AMI
          </Button>
        </DialogActions>
      </form>
      {guard.prompt}
    </Dialog>
  );
}
