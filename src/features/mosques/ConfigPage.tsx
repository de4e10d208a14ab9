import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DescriptionIcon from '@mui/icons-material/Description';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import MosqueIcon from '@mui/icons-material/Mosque';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { GenerateRequest, Mosque } from '../../../contract/mosques';
import {
  MOSQUE_MESSAGES,
  mosqueErrorMessage,
  coordinatesQueryOptions,
  mosquesQueryOptions,
  prayerTimesQueryOptions,
  useBulkMosques,
  useCreateMosque,
  useDeleteMosque,
  useGenerateConfigs,
  useMosquesPage,
  useUpdateMosque,
} from '../../api/config';
import {
  SCHEDULER_MESSAGES,
  schedulerErrorMessage,
  schedulerJobsQueryOptions,
  useScheduleFriday,
} from '../../api/scheduler';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { usePageInRange } from '../../components/ListPagination';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { StatCard } from '../../components/StatCard';
import { errorFields } from '../../api/client';
import { fieldsUnder } from '../../lib/field-errors';
import { readyToRecord } from '../../lib/ready-to-record';
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
import { queryOfView, viewFromParams } from './mosque-list-view';
import { MosquesTable } from './MosquesTable';

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
  // The cards and Generate read the whole fleet (10,000 mosques, their prayer times and jobs): asked once
  // the first page is on screen, so they never stand between the operator and the table.
  const fleetReads = { enabled: shown.isSuccess || shown.isError };
  const mosques = useQuery({ ...mosquesQueryOptions(), ...fleetReads });
  const coordinates = useQuery({ ...coordinatesQueryOptions(), ...fleetReads });
  const prayerTimes = useQuery({ ...prayerTimesQueryOptions(), ...fleetReads });
  const jobs = useQuery({ ...schedulerJobsQueryOptions(), ...fleetReads });
  const { selected, select, clear: clearSelection } = useSelection();
  const [asking, setAsking] = useState<MosqueSelectionAction | null>(null);
  const [form, setForm] = useState<FormState>(null);
  const [formKey, setFormKey] = useState(0);
  // The mosque stays named while its confirmation closes.
  const [deleting, setDeleting] = useState<Mosque | null>(null);
  const [testing, setTesting] = useState<Mosque | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [dismissedError, setDismissedError] = useState(0);

  const list = useMemo(() => mosques.data ?? [], [mosques.data]);
  const located = useMemo(() => {
    const ids = new Set((coordinates.data ?? []).map((record) => record.mosque_id));
    for (const mosque of [...list, ...(shown.data?.mosques ?? [])])
      if (mosque.latitude !== null && mosque.longitude !== null) ids.add(mosque.mosque_id);
    return ids;
  }, [coordinates.data, list, shown.data]);
  const times = useMemo(
    () => new Map((prayerTimes.data ?? []).map((record) => [record.mosque_id, record])),
    [prayerTimes.data],
  );
  const ready = readyToRecord({ mosques: list, located, prayerTimes: times, jobs: jobs.data ?? [] }).length;
  // The table's page or the whole list, whichever failed (the list is asked only after the page answered).
  const failedRead = shown.isError ? shown : mosques.isError ? mosques : null;
  const loadError =
    failedRead && failedRead.errorUpdatedAt !== dismissedError
      ? mosqueErrorMessage(failedRead.error, MOSQUE_MESSAGES.loadFailed)
      : null;

  const total = shown.data?.total;
  usePageInRange(total, view, updateView);

  const runBulk = () => {
    if (!asking) return;
    const ids = [...selected];
    const done = (message: string) => {
      notify.success(message);
      clearSelection();
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
      { action: asking, mosque_ids: ids },
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
          notify.warning(`Skipped ${result.skipped.length} mosque(s): ${reasons}`);
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
              disabled={list.length === 0}
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
        <StatCard title="Total Mosques" value={list.length} icon={<MosqueIcon />} color="primary" />
        <StatCard
          title="Coordinates"
          value={list.filter((m) => located.has(m.mosque_id)).length}
          icon={<LocationOnIcon />}
          color="info"
        />
        <StatCard
          title="Prayer Times"
          value={list.filter((m) => times.has(m.mosque_id)).length}
          icon={<ScheduleIcon />}
          color="warning"
        />
        <StatCard
          title="Ready to Record"
          value={ready}
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
        onSelect={select}
        bulkBar={
          selected.size > 0 && (
            <MosquesBulkBar
              count={selected.size}
              busy={bulk.isPending || schedule.isPending}
              onAction={setAsking}
              onClear={clearSelection}
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
        {...(asking ? bulkQuestion(asking, selected.size) : { title: '', message: '' })}
        confirmColor={asking === 'delete' ? 'error' : 'primary'}
        busy={bulk.isPending || schedule.isPending}
        onConfirm={runBulk}
        onCancel={() => setAsking(null)}
      />
      {generating && (
        <GenerateDialog
          mosques={list}
          generating={generate.isPending}
          onCancel={() => setGenerating(false)}
          onGenerate={runGenerate}
        />
      )}
    </>
  );
}
