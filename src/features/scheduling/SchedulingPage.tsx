import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Job, ScheduleRequest, SkippedMosque, UpcomingRecording } from '../../../contract/scheduler';
import {
  SCHEDULER_MESSAGES,
  SCHEDULER_REFRESH_MS,
  schedulerErrorMessage,
  schedulerQueryKeys,
  useCancelJob,
  useScheduleFriday,
  useSchedulerStatus,
  useStartScheduler,
  useStopScheduler,
  useUpcomingRecordings,
} from '../../api/scheduler';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { useNotify } from '../../notifications/context';
import { FridaysSection } from './fridays/FridaysSection';
import { ActiveJobsSection } from './ActiveJobsSection';
import { CancelRecordingDialog, cancelTargetOf, StopSchedulerDialog, type CancelTarget } from './confirmations';
import { PrayerTimesSection } from './PrayerTimesSection';
import { ScheduleFridayDialog } from './ScheduleFridayDialog';
import { SchedulerStatusCard } from './SchedulerStatusCard';
import { UpcomingRecordingsSection } from './UpcomingRecordingsSection';
import { useNow } from './useNow';
import { countOf } from '../../../contract/plural';

/** "Skipped 2 mosques: A (reason); B (reason)", naming at most three. */
export function skippedMessage(skipped: SkippedMosque[]): string {
  const named = skipped.slice(0, 3).map((skip) => `${skip.mosque_name ?? skip.mosque_id} (${skip.reason})`);
  const rest = skipped.length > 3 ? `; and ${skipped.length - 3} more` : '';
  return `Skipped ${countOf(skipped.length, 'mosque')}: ${named.join('; ')}${rest}`;
}

/** /scheduling: the Friday recording scheduler (docs/reference.md sections 2, 4, 7, 8 and 9, Scheduler). */
export default function SchedulingPage() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [autoRefresh, setAutoRefresh] = useState(true);
  const polling = autoRefresh ? SCHEDULER_REFRESH_MS : false;
  const status = useSchedulerStatus(polling);
  const upcoming = useUpcomingRecordings(polling);
  const fetching = useIsFetching({ queryKey: schedulerQueryKeys.all }) > 0;
  const scheduleFriday = useScheduleFriday();
  const startScheduler = useStartScheduler();
  const stopScheduler = useStopScheduler();
  const cancelJob = useCancelJob();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [dialogKey, setDialogKey] = useState(0);
  const [dismissedError, setDismissedError] = useState(0);
  const [cancelTarget, setCancelTarget] = useState<CancelTarget | null>(null);
  const [confirmStop, setConfirmStop] = useState(false);
  const now = useNow();

  const running = status.data?.scheduler_running;
  const failed = [status, upcoming].filter((query) => query.isError);
  const lastErrorAt = Math.max(0, ...failed.map((query) => query.errorUpdatedAt));
  const loadError =
    failed.length > 0 && lastErrorAt !== dismissedError
      ? schedulerErrorMessage(failed[0].error, SCHEDULER_MESSAGES.loadFailed)
      : null;
  const cancelling = cancelJob.isPending ? (cancelJob.variables ?? null) : null;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: schedulerQueryKeys.all });

  const openDialog = () => {
    setDialogKey((key) => key + 1);
    setDialogOpen(true);
  };

  const schedule = (request: ScheduleRequest) => {
    scheduleFriday.mutate(request, {
      onSuccess: ({ message, data }) => {
        setDialogOpen(false);
        const text = message || SCHEDULER_MESSAGES.scheduled(data.scheduled);
        if (data.scheduled > 0) notify.success(text);
        else notify.warning(text);
        if (data.skipped.length > 0) notify.warning(skippedMessage(data.skipped));
      },
      onError: (error) => notify.error(schedulerErrorMessage(error, SCHEDULER_MESSAGES.scheduleFailed)),
    });
  };

  const start = () =>
    startScheduler.mutate(undefined, {
      onSuccess: () => notify.success(SCHEDULER_MESSAGES.started),
      onError: (error) => notify.error(schedulerErrorMessage(error, SCHEDULER_MESSAGES.startFailed)),
    });

  // Confirmed: the dialog closes at once and the outcome is notified.
  const stop = () => {
    setConfirmStop(false);
    stopScheduler.mutate(undefined, {
      onSuccess: () => notify.success(SCHEDULER_MESSAGES.stopped),
      onError: (error) => notify.error(schedulerErrorMessage(error, SCHEDULER_MESSAGES.stopFailed)),
    });
  };

  const cancel = (target: CancelTarget) => {
    setCancelTarget(null);
    cancelJob.mutate(target.jobId, {
      onSuccess: ({ message }) => notify.success(message || SCHEDULER_MESSAGES.cancelled),
      onError: (error) => notify.error(schedulerErrorMessage(error, SCHEDULER_MESSAGES.cancelFailed)),
    });
  };
  const askCancel = (target: Job | UpcomingRecording) => setCancelTarget(cancelTargetOf(target));

  return (
    <>
      <PageHeader
        title="Scheduling Management"
        subtitle="Friday recordings start 20 minutes before each mosque's Friday prayer"
        actions={
          <>
            <FormControlLabel
              control={<Switch checked={autoRefresh} onChange={(event) => setAutoRefresh(event.target.checked)} />}
              label="Auto Refresh"
            />
            <Button variant="outlined" startIcon={<RefreshIcon />} onClick={refresh} disabled={fetching}>
              Refresh
            </Button>
            <Button
              variant="contained"
              startIcon={<EventRepeatIcon />}
              onClick={openDialog}
              disabled={running !== true}
            >
              Schedule Friday Recordings
            </Button>
          </>
        }
      />
      <ErrorBanner message={loadError} onClose={() => setDismissedError(lastErrorAt)} />
      <SchedulerStatusCard
        status={status.data}
        updatedAt={status.dataUpdatedAt}
        busy={startScheduler.isPending || stopScheduler.isPending}
        onStart={start}
        onStop={() => setConfirmStop(true)}
      />
      <UpcomingRecordingsSection
        recordings={upcoming.data ?? []}
        loading={upcoming.isPending}
        running={running}
        total={status.data?.active_schedules}
        now={now}
        cancelling={cancelling}
        onCancel={askCancel}
      />
      <FridaysSection polling={polling} now={now} />
      <ActiveJobsSection polling={polling} cancelling={cancelling} onCancel={askCancel} />
      <PrayerTimesSection polling={polling} />
      <CancelRecordingDialog
        target={cancelTarget}
        onConfirm={() => cancelTarget && cancel(cancelTarget)}
        onClose={() => setCancelTarget(null)}
      />
      <StopSchedulerDialog open={confirmStop} onConfirm={stop} onClose={() => setConfirmStop(false)} />
      {dialogOpen && (
        <ScheduleFridayDialog
          key={dialogKey}
          scheduling={scheduleFriday.isPending}
          onCancel={() => setDialogOpen(false)}
          onSchedule={schedule}
        />
      )}
    </>
  );
}
