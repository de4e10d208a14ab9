import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import { useState } from 'react';
import type { LibraryRecording } from '../../../contract/recordings';
import { apiErrorMessage } from '../../api/client';
import { getMediaLink, RECORDING_MESSAGES, useDeleteRecording, useRecordingsPage } from '../../api/recordings';
import { useAuth } from '../../auth/context';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageHeader } from '../../components/PageHeader';
import { formatBytes } from '../../lib/recording-outcome';
import { useNotify } from '../../notifications/context';
import { PAGE_SIZES } from '../../lib/paging';
import { PlayerDialog } from './PlayerDialog';
import { NO_FILTERS, RecordingsFilters, type RecordingsFilterValues } from './RecordingsFilters';
import { RecordingsTable } from './RecordingsTable';
import { StorageCard } from '../../components/StorageCard';

/** Drops empty filters so the query string carries only what narrows the list. */
function queryOf(filters: RecordingsFilterValues, page: number, size: number) {
  return {
    limit: size,
    offset: page * size,
    ...(filters.mosque_id ? { mosque_id: filters.mosque_id } : {}),
    ...(filters.friday ? { friday: filters.friday } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
}

/** Every capture by Friday and mosque: play, download, delete; and the store's space. */
export default function RecordingsPage() {
  const { user } = useAuth();
  const notify = useNotify();
  const [filters, setFilters] = useState<RecordingsFilterValues>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(PAGE_SIZES[0]);
  const [playing, setPlaying] = useState<LibraryRecording | null>(null);
  const [deleting, setDeleting] = useState<LibraryRecording | null>(null);
  const list = useRecordingsPage(queryOf(filters, page, size));
  const remove = useDeleteRecording();

  const download = async (recording: LibraryRecording) => {
    try {
      const link = document.createElement('a');
      link.href = `${await getMediaLink(recording)}&download=1`;
      link.rel = 'noopener';
      link.click();
    } catch (error) {
      notify.error(apiErrorMessage(error, RECORDING_MESSAGES.playFailed));
    }
  };
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting, {
      onSuccess: () => notify.success(RECORDING_MESSAGES.deleted),
      onError: (error) => notify.error(apiErrorMessage(error, RECORDING_MESSAGES.deleteFailed)),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Box>
      <PageHeader title="Recordings" subtitle="Every capture by Friday and mosque" />
      {/* The storage card sits beside the table only from xl (above it on narrower screens): at 1440 px it left the table less than its 820 px, and Actions scrolled out of view. */}
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', xl: '1fr 320px' }, alignItems: 'start' }}>
        <Box sx={{ order: { xl: 1 } }}>
          <StorageCard />
        </Box>
        <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
          <RecordingsFilters
            value={filters}
            onChange={(next) => {
              setFilters(next);
              setPage(0);
            }}
          />
          {list.isError && <Alert severity="error">{apiErrorMessage(list.error, RECORDING_MESSAGES.loadFailed)}</Alert>}
          <RecordingsTable
            recordings={list.data?.recordings ?? []}
            loading={list.isPending}
            canDelete={user?.is_superuser === true}
            onPlay={setPlaying}
            onDownload={(recording) => void download(recording)}
            onDelete={setDeleting}
          />
          <TablePagination
            component="div"
            count={list.data?.total ?? 0}
            page={page}
            rowsPerPage={size}
            rowsPerPageOptions={[...PAGE_SIZES]}
            onPageChange={(_, next) => setPage(next)}
            onRowsPerPageChange={(event) => {
              setSize(Number(event.target.value));
              setPage(0);
            }}
          />
        </Paper>
      </Box>
      <PlayerDialog recording={playing} onClose={() => setPlaying(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete recording?"
        message={
          deleting
            ? `The recording of ${deleting.mosque_name ?? deleting.mosque_id ?? 'an ad-hoc capture'} on ${deleting.friday} (${formatBytes(deleting.bytes)}) will be removed from the store. This cannot be undone.`
            : ''
        }
        confirmLabel="Delete"
        confirmColor="error"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Box>
  );
}
