import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import type { Role } from '../../../contract/auth';
import { formChanged, useDiscardGuard } from '../../components/useDiscardGuard';
import { canSubmit, type UserFormValues } from './user-form';

interface UserFormDialogProps {
  /** Edit mode: the username is read-only and the password optional. */
  editing: boolean;
  initial: UserFormValues;
  saving: boolean;
  /** Shown inside the dialog, which stays open on failure. */
  error: string | null;
  onCancel: () => void;
  onSubmit: (values: UserFormValues) => void;
}

/** "Create New User" / "Edit User" (docs/reference.md section 2, User Management). Mount it with a key per opening. */
export function UserFormDialog({ editing, initial, saving, error, onCancel, onSubmit }: UserFormDialogProps) {
  const [values, setValues] = useState<UserFormValues>(initial);
  const guard = useDiscardGuard({ dirty: formChanged(values, initial), busy: saving, onDiscard: onCancel });
  const set = <K extends keyof UserFormValues>(field: K, value: UserFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmit(values, editing) && !saving) onSubmit(values);
  };

  return (
    <Dialog open onClose={guard.onClose} maxWidth="sm" fullWidth aria-labelledby="user-form-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="user-form-title">{editing ? 'Edit User' : 'Create New User'}</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {error}
            </Alert>
          )}
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Username"
              value={values.username}
              onChange={(event) => set('username', event.target.value)}
              required
              disabled={editing}
              slotProps={{ htmlInput: { readOnly: editing, autoComplete: 'off' } }}
              fullWidth
            />
            <TextField
              label="Email"
              type="email"
              value={values.email}
              onChange={(event) => set('email', event.target.value)}
              required
              fullWidth
            />
            <TextField
              label="Full Name"
              value={values.full_name}
              onChange={(event) => set('full_name', event.target.value)}
              fullWidth
            />
            <TextField
              label={editing ? 'New Password (leave blank to keep current)' : 'Password'}
              type="password"
              value={values.password}
              onChange={(event) => set('password', event.target.value)}
              required={!editing}
              slotProps={{ htmlInput: { autoComplete: 'new-password' } }}
              fullWidth
            />
            <TextField
              select
              label="Role"
              value={values.role}
              onChange={(event) => set('role', event.target.value as Role)}
              fullWidth
            >
              <MenuItem value="admin">Admin</MenuItem>
              <MenuItem value="user">User</MenuItem>
            </TextField>
            <Stack direction="row" spacing={3}>
              <FormControlLabel
                control={
                  <Switch checked={values.is_active} onChange={(event) => set('is_active', event.target.checked)} />
                }
                label="Active"
              />
              <FormControlLabel
                control={
                  <Switch
                    checked={values.is_superuser}
                    onChange={(event) => set('is_superuser', event.target.checked)}
                  />
                }
                label="Superuser"
              />
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={saving} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving || !canSubmit(values, editing)}>
            {editing ? 'Update' : 'Create'}
          </Button>
        </DialogActions>
      </form>
      {guard.prompt}
    </Dialog>
  );
}
