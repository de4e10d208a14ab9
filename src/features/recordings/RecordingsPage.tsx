import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import { format } from 'date-fns';
import { useState } from 'react';
import type { LibraryRecording } from '../../../contract/recordings';
import { apiErrorMessage } from '../../api/client';
import {
  getMediaLink,
  getMediaLinks,
  RECORDING_MESSAGES,
  saveBlob,
  saveSignedLink,
  useBulkDeleteRecordings,
  useDeleteRecording,
  useRecordingsPage,
} from '../../api/recordings';
import { useAuth } from '../../auth/context';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListPagination, usePageInRange } from '../../components/ListPagination';
import { PageHeader } from '../../components/PageHeader';
import { StorageCard } from '../../widgets/StorageCard';
import { nextSort } from '../../lib/list-view';
import { formatBytes } from '../../lib/recording-outcome';
import { useSelection } from '../../lib/selection';
import { useUrlParams } from '../../lib/url-params';
import { useNotify } from '../../notifications/context';
import { PlayerDialog } from './PlayerDialog';
import { linksFile, RecordingsBulkBar, recordingsBulkQuestion, type RecordingBulkAction } from './RecordingsBulkBar';
import { RecordingsFilters } from './RecordingsFilters';
import { RecordingsTable } from './RecordingsTable';
import { recordingsQueryOfView, recordingsViewFromParams } from './recordings-view';

/** Every capture by Friday and mosque: search, sort, play, download, delete (one or many); and the store's space. */
export default function RecordingsPage() {
  const { user } = useAuth();
  const notify = useNotify();
  const { params, update: updateView } = useUrlParams();
  const view = recordingsViewFromParams(params);
  const [playing, setPlaying] = useState<LibraryRecording | null>(null);
  const [deleting, setDeleting] = useState<LibraryRecording | null>(null);
  const { selected, select, clear: clearSelection } = useSelection();
  const [asking, setAsking] = useState<RecordingBulkAction | null>(null);
  const [savingLinks, setSavingLinks] = useState(false);
  const list = useRecordingsPage(recordingsQueryOfView(view));
  const remove = useDeleteRecording();
  const removeMany = useBulkDeleteRecordings();
  const canDelete = user?.is_superuser === true;

  const total = list.data?.total;
  usePageInRange(total, view, updateView);

  const download = async (recording: LibraryRecording) => {
    try {
      saveSignedLink(await getMediaLink(recording));
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

  const saveLinks = async (ids: string[]) => {
    setSavingLinks(true);
    try {
      const { links, failed } = await getMediaLinks(ids);
      if (links.length > 0) {
        const text = linksFile(
          links.map((link) => link.url),
          window.location.origin,
        );
        saveBlob(
          new Blob([text], { type: 'text/plain' }),
          `recording-links-${format(new Date(), 'yyyyMMdd-HHmm')}.txt`,
        );
        notify.success(RECORDING_MESSAGES.linksSaved(links.length));
      }
      if (failed.length > 0) notify.warning(RECORDING_MESSAGES.notDone('No download link for', failed));
      clearSelection();
    } catch (error) {
      notify.error(apiErrorMessage(error, RECORDING_MESSAGES.linksFailed));
    } finally {
      setSavingLinks(false);
      setAsking(null);
    }
  };
  const runBulk = () => {
    const ids = [...selected];
    if (asking === 'links') {
      void saveLinks(ids);
      return;
    }
    removeMany.mutate(ids, {
      onSuccess: ({ message, failed }) => {
        if (failed.length < ids.length) notify.success(message);
        if (failed.length > 0) notify.warning(RECORDING_MESSAGES.notDone('Could not delete', failed));
        clearSelection();
      },
      onError: (error) => notify.error(apiErrorMessage(error, RECORDING_MESSAGES.bulkDeleteFailed)),
      onSettled: () => setAsking(null),
    });
  };
  const busy = savingLinks || removeMany.isPending;

  return (
    <Box>
      <PageHeader title="Recordings" subtitle="Every capture by day (a Friday, or a one-off's own) and mosque" />
      {/* The storage card sits beside the table only from xl (above it on narrower screens): at 1440 px it left the table less than its 820 px, and Actions scrolled out of view. */}
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', xl: '1fr 320px' }, alignItems: 'start' }}>
        <Box sx={{ order: { xl: 1 } }}>
          <StorageCard />
        </Box>
        <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
          <RecordingsFilters view={view} onView={updateView} />
          {selected.size > 0 && (
            <RecordingsBulkBar
              count={selected.size}
              busy={busy}
              canDelete={canDelete}
              onAction={setAsking}
              onClear={clearSelection}
            />
          )}
          {list.isError && <Alert severity="error">{apiErrorMessage(list.error, RECORDING_MESSAGES.loadFailed)}</Alert>}
          {list.isFetching && <LinearProgress aria-label="Loading recordings" />}
          <RecordingsTable
            recordings={list.data?.recordings ?? []}
            loading={list.isPending}
            sort={view.sort}
            order={view.order}
            onSort={(field) =>
              updateView((current) => ({ ...nextSort(recordingsViewFromParams(current), field), page: null }))
            }
            selected={selected}
            onSelect={select}
            canDelete={canDelete}
            onPlay={setPlaying}
            onDownload={(recording) => void download(recording)}
            onDelete={setDeleting}
          />
          <ListPagination total={total ?? 0} view={view} onView={updateView} />
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
      <ConfirmDialog
        open={asking !== null}
        {...(asking ? recordingsBulkQuestion(asking, selected.size) : { title: '', message: '' })}
        confirmColor={asking === 'delete' ? 'error' : 'primary'}
        busy={busy}
        onConfirm={runBulk}
        onCancel={() => setAsking(null)}
      />
    </Box>
  );
}
