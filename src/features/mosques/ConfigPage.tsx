import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DescriptionIcon from '@mui/icons-material/Description';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import MosqueIcon from '@mui/icons-material/Mosque';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { useMemo, useState } from 'react';
import type { GenerateRequest, Mosque } from '../../../contract/mosques';
import {
  MOSQUE_MESSAGES,
  mosqueErrorMessage,
  useBulkMosques,
  useCreateMosque,
  useDeleteMosque,
  useGenerateConfigs,
  useMosquesPage,
  useMosquesSummary,
  usePrayerTimesOf,
  useUpdateMosque,
} from '../../api/config';
import { SCHEDULER_MESSAGES, schedulerErrorMessage, useScheduleFriday } from '../../api/scheduler';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { usePageInRange } from '../../components/ListPagination';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { StatCard } from '../../components/StatCard';
import { errorFields } from '../../api/client';
import { fieldsUnder } from '../../lib/field-errors';
import { useSelection } from '../../lib/selection';
import { useUrlParams } from '../../lib/url-params';
import { useNotify } from '../../notifications/context';
import { configFileName, downloadJson } from './download';
import { GenerateDialog } from './GenerateDialog';
import {
  createPayload,
  EMPTY_MOSQUE_FORM,
  formFromMosque,
  updatePayload,
  type MosqueFormErrors,
  type MosqueFormValues,
} from './mosque-form';
import { MosqueFormDialog } from './MosqueFormDialog';
import { MosqueStreamTestDialog } from './MosqueStreamTestDialog';
import { bulkQuestion, MosquesBulkBar, type MosqueSelectionAction } from './MosquesBulkBar';
import { matchOfView, queryOfView, viewFromParams } from './mosque-list-view';
import { MosquesTable } from './MosquesTable';
import { countOf } from '../../../contract/plural';

type FormState = { mode: 'add' } | { mode: 'edit'; mosque: Mosque } | null;

export const deleteQuestion = (id: string) =>
  `Are you sure you want to delete mosque ${id}? This action cannot be undone.`;

/** /config: mosques, their coordinates and prayer times, and recording configuration files (docs/reference.md section 2). */
export default function ConfigPage() {
  const notify = useNotify();
  const createMosque = useCreateMosque();
  const updateMosque = useUpdateMosque();
  const deleteMosque = useDeleteMosque();
  const generate = useGenerateConfigs();
  const bulk = useBulkMosques();
  const schedule = useScheduleFriday();
  const { params, update: updateView } = useUrlParams();
  const view = viewFromParams(params);
  const shown = useMosquesPage(queryOfView(view));
  // The cards are four counts from the server and the table's prayer times are its page's; Generate's
  // mosques are searched on the server: nothing here downloads the fleet.
  const summary = useMosquesSummary();
  const pageIds = useMemo(() => (shown.data?.mosques ?? []).map((mosque) => mosque.mosque_id), [shown.data]);
  const prayerTimes = usePrayerTimesOf(pageIds);
  const { selected, select, clear: clearSelection } = useSelection();
  // "Select all N matching": the filter and its count as confirmed; it lapses when the view's filter changes.
  const match = matchOfView(view);
  const matchKey = JSON.stringify(match);
  const [allMatching, setAllMatching] = useState<{ key: string; total: number } | null>(null);
  const matching = allMatching?.key === matchKey ? allMatching : null;
  const [asking, setAsking] = useState<MosqueSelectionAction | null>(null);
  const [form, setForm] = useState<FormState>(null);
  const [formKey, setFormKey] = useState(0);
  // The mosque stays named while its confirmation closes.
  const [deleting, setDeleting] = useState<Mosque | null>(null);
  const [testing, setTesting] = useState<Mosque | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [dismissedError, setDismissedError] = useState(0);

  const located = useMemo(
    () =>
      new Set(
        (shown.data?.mosques ?? [])
          .filter((mosque) => mosque.latitude !== null && mosque.longitude !== null)
          .map((mosque) => mosque.mosque_id),
      ),
    [shown.data],
  );
  // Another page's prayer times, kept while this page's are read, are not this page's: unknown until they come.
  const pageTimes = prayerTimes.isPlaceholderData ? undefined : prayerTimes.data;
  const times = useMemo(
    () => (pageTimes || pageIds.length === 0 ? new Map((pageTimes ?? []).map((r) => [r.mosque_id, r])) : undefined),
    [pageTimes, pageIds.length],
  );
  const counts = summary.data;
  // The table's page, its prayer times or the counts, whichever failed.
  const failedRead = [shown, prayerTimes, summary].find((read) => read.isError) ?? null;
  const loadError =
    failedRead && failedRead.errorUpdatedAt !== dismissedError
      ? mosqueErrorMessage(failedRead.error, MOSQUE_MESSAGES.loadFailed)
      : null;

  const total = shown.data?.total;
  usePageInRange(total, view, updateView);

  const pageSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const selectedCount = matching ? matching.total : selected.size;
  const clearAll = () => {
    clearSelection();
    setAllMatching(null);
  };

  const runBulk = () => {
    if (!asking) return;
    const ids = [...selected];
    const done = (message: string) => {
      notify.success(message);
      clearAll();
      setAsking(null);
    };
    if (asking === 'schedule') {
      schedule.mutate(
        { forceRefresh: false, mosqueFilter: ids },
        {
          onSuccess: ({ message, data }) => done(message || SCHEDULER_MESSAGES.scheduled(data.scheduled)),
          onError: (error) => {
            notify.error(schedulerErrorMessage(error, SCHEDULER_MESSAGES.scheduleFailed));
            setAsking(null);
          },
        },
      );
      return;
    }
    bulk.mutate(
      matching ? { action: asking, matching: match, expected: matching.total } : { action: asking, mosque_ids: ids },
      {
        onSuccess: ({ message, data }) => {
          done(message);
          if (data.missing.length > 0) notify.warning(MOSQUE_MESSAGES.bulkMissing(data.missing.length));
        },
        onError: (error) => {
          notify.error(mosqueErrorMessage(error, MOSQUE_MESSAGES.bulkFailed));
          setAsking(null);
        },
      },
    );
  };

  const openForm = (next: FormState) => {
    // A refusal belongs to the form it answered, not to the next one.
    createMosque.reset();
    updateMosque.reset();
    setFormKey((key) => key + 1);
    setForm(next);
  };

  const refusedFields = useMemo(
    () => fieldsUnder(errorFields(form?.mode === 'edit' ? updateMosque.error : createMosque.error)) as MosqueFormErrors,
    [form?.mode, updateMosque.error, createMosque.error],
  );

  const save = (values: MosqueFormValues) => {
    if (form?.mode === 'edit') {
      updateMosque.mutate(
        { id: form.mosque.mosque_id, body: updatePayload(formFromMosque(form.mosque), values) },
        {
          onSuccess: () => {
            notify.success(MOSQUE_MESSAGES.updated);
            setForm(null);
          },
          onError: (error) => notify.error(mosqueErrorMessage(error, MOSQUE_MESSAGES.updateFailed)),
        },
      );
    } else {
      createMosque.mutate(createPayload(values), {
        onSuccess: () => {
          notify.success(MOSQUE_MESSAGES.added);
          setForm(null);
        },
        onError: (error) => notify.error(mosqueErrorMessage(error, MOSQUE_MESSAGES.addFailed)),
      });
    }
  };

  const confirmDelete = () => {
    if (!deleting || !confirmOpen) return;
    const id = deleting.mosque_id;
    deleteMosque.mutate(id, {
      onSuccess: () => {
        notify.success(MOSQUE_MESSAGES.deleted(id));
        setConfirmOpen(false);
      },
      onError: (error) => {
        notify.error(mosqueErrorMessage(error, MOSQUE_MESSAGES.deleteFailed));
        setConfirmOpen(false);
      },
    });
  };

  const runGenerate = (settings: GenerateRequest) => {
    generate.mutate(settings, {
      onSuccess: (result) => {
        if (result.total_configs > 0) downloadJson(configFileName(), result.recordings);
        notify.success(MOSQUE_MESSAGES.generated(result.total_configs));
        if (result.skipped.length > 0) {
          const reasons = result.skipped.map((skip) => `${skip.mosque_id}: ${skip.reason}`).join('; ');
          notify.warning(`Skipped ${countOf(result.skipped.length, 'mosque')}: ${reasons}`);
        }
        setGenerating(false);
      },
      onError: (error) => notify.error(mosqueErrorMessage(error, MOSQUE_MESSAGES.generateFailed)),
    });
  };

  return (
    <>
      <PageHeader
        title="Config Generator"
        subtitle="Mosques, their coordinates and prayer times, and recording configurations"
        actions={
          <>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm({ mode: 'add' })}>
              Add Mosque
            </Button>
            <Button
              variant="outlined"
              startIcon={<DescriptionIcon />}
              onClick={() => setGenerating(true)}
              disabled={counts?.total === 0}
            >
              Generate Configs
            </Button>
          </>
        }
      />
      <ErrorBanner message={loadError} onClose={() => setDismissedError(failedRead?.errorUpdatedAt ?? 0)} />
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
          gap: 2,
          mb: 3,
        }}
      >
        <StatCard title="Total Mosques" value={counts?.total} icon={<MosqueIcon />} color="primary" />
        <StatCard title="Coordinates" value={counts?.located} icon={<LocationOnIcon />} color="info" />
        <StatCard title="Prayer Times" value={counts?.timed} icon={<ScheduleIcon />} color="warning" />
        <StatCard
          title="Ready to Record"
          value={counts?.ready}
          subtitle="Active, streamed, located and timed"
          icon={<CheckCircleIcon />}
          color="success"
        />
      </Box>
      <MosquesTable
        mosques={shown.data?.mosques ?? []}
        total={total ?? 0}
        loading={shown.isFetching}
        view={view}
        onView={updateView}
        selected={selected}
        onSelect={(ids, on) => {
          // A row ticked or unticked by hand makes the selection the rows again, not the whole match.
          setAllMatching(null);
          select(ids, on);
        }}
        bulkBar={
          selectedCount > 0 && (
            <MosquesBulkBar
              count={selectedCount}
              busy={bulk.isPending || schedule.isPending}
              onAction={setAsking}
              onClear={clearAll}
              allMatching={matching !== null}
              selectAll={
                !matching && pageSelected && total !== undefined && total > selected.size
                  ? { total, onSelect: () => setAllMatching({ key: matchKey, total }) }
                  : undefined
              }
            />
          )
        }
        located={located}
        prayerTimes={times}
        onEdit={(mosque) => openForm({ mode: 'edit', mosque })}
        onDelete={(mosque) => {
          setDeleting(mosque);
          setConfirmOpen(true);
        }}
        onTestStream={setTesting}
      />
      {testing && <MosqueStreamTestDialog mosque={testing} onClose={() => setTesting(null)} />}
      {form && (
        <MosqueFormDialog
          key={formKey}
          mode={form.mode}
          initial={form.mode === 'edit' ? formFromMosque(form.mosque) : EMPTY_MOSQUE_FORM}
          saving={createMosque.isPending || updateMosque.isPending}
          onCancel={() => setForm(null)}
          onSubmit={save}
          serverErrors={refusedFields}
        />
      )}
      <ConfirmDialog
        open={confirmOpen}
        title="Delete Mosque"
        message={deleting ? deleteQuestion(deleting.mosque_id) : ''}
        confirmLabel="Delete"
        confirmColor="error"
        busy={deleteMosque.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setConfirmOpen(false)}
      />
      <ConfirmDialog
        open={asking !== null}
        {...(asking ? bulkQuestion(asking, selectedCount) : { title: '', message: '' })}
        confirmColor={asking === 'delete' ? 'error' : 'primary'}
        busy={bulk.isPending || schedule.isPending}
        onConfirm={runBulk}
        onCancel={() => setAsking(null)}
      />
      {generating && (
        <GenerateDialog
          generating={generate.isPending}
          onCancel={() => setGenerating(false)}
          onGenerate={runGenerate}
        />
      )}
    </>
  );
}
