import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useCallback, useState } from 'react';
import type { User } from '../../../contract/auth';
import { USER_SORT_FIELDS } from '../../../contract/user-list';
import { apiErrorMessage } from '../../api/client';
import { useCreateUser, useUpdateUser, useUsersPage } from '../../api/users';
import { useAuth } from '../../auth/context';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorBanner } from '../../components/ErrorBanner';
import { ListPagination, usePageInRange } from '../../components/ListPagination';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { listQueryOfView, listViewFromParams, nextSort } from '../../lib/list-view';
import { useUrlParams } from '../../lib/url-params';
import { useNotify } from '../../notifications/context';
import { createPayload, EMPTY_USER_FORM, formFromUser, updatePayload, type UserFormValues } from './user-form';
import { UserFormDialog } from './UserFormDialog';
import { UsersTable } from './UsersTable';

export const SELF_DEACTIVATION = 'Cannot deactivate your own account';

type DialogState = { mode: 'create' } | { mode: 'edit'; user: User } | null;

/** The User Management page body (docs/reference.md sections 2, 5 and 8, Users). */
export function UserManagement() {
  const { user: me, updateUser: updateMe } = useAuth();
  const { params, update: updateView } = useUrlParams();
  const view = listViewFromParams(params, USER_SORT_FIELDS);
  // Searched, sorted and paged on the server (docs/reference.md's list call, with the view's parameters).
  const users = useUsersPage(listQueryOfView(view));
  usePageInRange(users.data?.total, view, updateView);
  const search = useCallback((q: string) => updateView({ q, page: null }), [updateView]);
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  const [banner, setBanner] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [dialogKey, setDialogKey] = useState(0);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busyUserId, setBusyUserId] = useState<number | null>(null);
  const [dismissedListError, setDismissedListError] = useState(0);
  const [deactivating, setDeactivating] = useState<User | null>(null);
  const notify = useNotify();

  const listError = users.isError && users.errorUpdatedAt !== dismissedListError ? 'Failed to fetch users' : null;

  const open = (next: DialogState) => {
    setSaveError(null);
    setDialogKey((key) => key + 1);
    setDialog(next);
  };

  const save = (values: UserFormValues) => {
    setSaveError(null);
    const onError = (error: unknown) => setSaveError(apiErrorMessage(error, 'Failed to save user'));
    const onSuccess = (saved: User) => {
      if (saved.id === me?.id) updateMe(saved);
      notify.success(`User ${saved.username} ${dialog?.mode === 'edit' ? 'updated' : 'created'}`);
      setDialog(null);
    };
    if (dialog?.mode === 'edit') {
      if (dialog.user.id === me?.id && dialog.user.is_active && !values.is_active) {
        setSaveError(SELF_DEACTIVATION);
        return;
      }
      updateUser.mutate({ id: dialog.user.id, body: updatePayload(values) }, { onSuccess, onError });
    } else {
      createUser.mutate(createPayload(values), { onSuccess, onError });
    }
  };

  const setActive = (target: User, active: boolean) => {
    setBusyUserId(target.id);
    updateUser.mutate(
      { id: target.id, body: { is_active: active } },
      {
        onSuccess: () => notify.success(`User ${target.username} ${active ? 'activated' : 'deactivated'}`),
        onError: () => setBanner('Failed to update user status'),
        onSettled: () => setBusyUserId(null),
      },
    );
  };

  const toggleActive = (target: User) => {
    if (target.id === me?.id) {
      setBanner(SELF_DEACTIVATION);
      return;
    }
    // Deactivating signs the user out everywhere: ask first. Activating again needs no such care.
    if (target.is_active) setDeactivating(target);
    else setActive(target, true);
  };

  return (
    <>
      <PageHeader
        title="User Management"
        subtitle="Manage user accounts and permissions"
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => open({ mode: 'create' })}>
            Create User
          </Button>
        }
      />
      <ErrorBanner
        message={banner ?? listError}
        onClose={() => (banner ? setBanner(null) : setDismissedListError(users.errorUpdatedAt))}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <SearchField label="Search users" placeholder="Search users..." value={view.q} onSearch={search} />
        <Button
          variant="outlined"
          startIcon={<RefreshIcon />}
          onClick={() => void users.refetch()}
          disabled={users.isFetching}
        >
          Refresh
        </Button>
      </Stack>
      <UsersTable
        users={users.data?.users ?? []}
        loading={users.isPending}
        sort={view.sort}
        order={view.order}
        onSort={(field) =>
          updateView((current) => ({ ...nextSort(listViewFromParams(current, USER_SORT_FIELDS), field), page: null }))
        }
        currentUserId={me?.id}
        busyUserId={busyUserId}
        onEdit={(user) => open({ mode: 'edit', user })}
        onToggleActive={toggleActive}
      />
      <ListPagination total={users.data?.total ?? 0} view={view} onView={updateView} />
      {dialog && (
        <UserFormDialog
          key={dialogKey}
          editing={dialog.mode === 'edit'}
          initial={dialog.mode === 'edit' ? formFromUser(dialog.user) : EMPTY_USER_FORM}
          saving={createUser.isPending || updateUser.isPending}
          error={saveError}
          onCancel={() => setDialog(null)}
          onSubmit={save}
        />
      )}
      <ConfirmDialog
        open={deactivating !== null}
        title="Deactivate user?"
        message={`${deactivating?.full_name || deactivating?.username || ''} will be signed out and cannot sign in until the account is activated again.`}
        confirmLabel="Deactivate"
        confirmColor="error"
        onConfirm={() => {
          if (deactivating) setActive(deactivating, false);
          setDeactivating(null);
        }}
        onCancel={() => setDeactivating(null)}
      />
    </>
  );
}
