import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogContentText from '@mui/material/DialogContentText';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import AlbumIcon from '@mui/icons-material/Album';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useMemo, useState } from 'react';
import type { Ami, AmiCreateRequest } from '../../../contract/ami';
import {
  AMI_MESSAGES,
  amiCreateErrorMessage,
  amiDeleteErrorMessage,
  amiLoadErrorMessage,
  useAmis,
  useCreateAmi,
  useDeleteAmi,
} from '../../api/ami';
import { errorDetail } from '../../api/client';
import { useInstances } from '../../api/instances';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { StatCard } from '../../components/StatCard';
import { useNotify } from '../../notifications/context';
import { amiSummary, sortAmis } from './ami-form';
import { AmiTable } from './AmiTable';
import { CreateAmiDialog } from './CreateAmiDialog';

/** Said when this server's recorders run on its own machine, where no launch waits for an image. */
export const LOCAL_IMAGES_OPTIONAL =
  'Images are optional here: this server runs its recorders on its own machine, and they record without one.';

/** The AMI Manager (docs/reference.md sections 2, 4, 5 and 8, AMI). */
export default function AmiPage() {
  const amis = useAmis();
  const instances = useInstances();
  const createAmi = useCreateAmi();
  const deleteAmi = useDeleteAmi();
  const notify = useNotify();
  const [createOpen, setCreateOpen] = useState(false);
  const [createKey, setCreateKey] = useState(0);
  const [createError, setCreateError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Ami | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [dismissedListError, setDismissedListError] = useState(0);

  const list = useMemo(() => sortAmis(amis.data?.amis ?? []), [amis.data]);
  // "—" until the images have answered: an empty list before then is unknown, not zero.
  const counted = amis.data ? amiSummary(list) : undefined;
  const listError = amis.isError && amis.errorUpdatedAt !== dismissedListError ? amiLoadErrorMessage(amis.error) : null;

  const openCreate = () => {
    setCreateError(null);
    setCreateKey((key) => key + 1);
    setCreateOpen(true);
  };

  const create = (body: AmiCreateRequest) => {
    setCreateError(null);
    createAmi.mutate(body, {
      onSuccess: (created) => {
        setCreateOpen(false);
        notify.success(AMI_MESSAGES.created(created.ami_id));
      },
      onError: (error) => {
        notify.error(amiCreateErrorMessage(error));
        setCreateError(errorDetail(error) ?? null);
      },
    });
  };

  const openDelete = (ami: Ami) => {
    setDeleteError(null);
    setDeleting(ami);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const id = deleting.ami_id;
    deleteAmi.mutate(id, {
      onSuccess: () => {
        setDeleting(null);
        notify.success(AMI_MESSAGES.deleted(id));
      },
      onError: (error) => {
        notify.error(amiDeleteErrorMessage(error));
        setDeleteError(errorDetail(error) ?? null);
      },
    });
  };

  return (
    <>
      <PageHeader
        title="AMI Manager"
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={<RefreshIcon />}
              onClick={() => void amis.refetch()}
              disabled={amis.isFetching}
            >
              Refresh
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={openCreate}>
              Create AMI
            </Button>
          </>
        }
      />
      <ErrorBanner message={listError} onClose={() => setDismissedListError(amis.errorUpdatedAt)} />
      <Grid container spacing={2} sx={{ mb: 3 }}>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard title="Total AMIs" value={counted?.total} icon={<AlbumIcon />} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard title="Available" value={counted?.available} icon={<CheckCircleIcon />} color="success" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard title="Pending" value={counted?.pending} icon={<HourglassTopIcon />} color="warning" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard
            title="Latest Version"
            value={counted && (counted.latest?.version ?? 'N/A')}
            subtitle={
              counted && <span style={{ wordBreak: 'break-all' }}>{counted.latest?.name ?? 'No available AMI'}</span>
            }
            icon={<LocalOfferIcon />}
            color="info"
          />
        </Grid>
      </Grid>
      <AmiTable
        amis={list}
        loading={amis.isPending}
        onDelete={openDelete}
        empty={
          <EmptyState
            icon={<AlbumIcon />}
            title="No AMIs found. Create your first AMI to get started."
            description={amis.data?.provider === 'local' ? LOCAL_IMAGES_OPTIONAL : undefined}
          />
        }
      />

      {createOpen && (
        <CreateAmiDialog
          key={createKey}
          instances={instances.data ?? []}
          instancesLoading={instances.isPending}
          busy={createAmi.isPending}
          error={createError}
          onCancel={() => setCreateOpen(false)}
          onCreate={create}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete AMI"
        message={
          <Stack spacing={2}>
            {deleteError && <Alert severity="error">{deleteError}</Alert>}
            <DialogContentText>
              Are you sure you want to delete AMI {deleting?.ami_id}
              {deleting?.name ? ` (${deleting.name})` : ''}?
            </DialogContentText>
            <Alert severity="warning">This action cannot be undone. The AMI and its snapshots will be deleted.</Alert>
          </Stack>
        }
        confirmLabel="Delete"
        confirmColor="error"
        busy={deleteAmi.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
