import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import CloudQueueIcon from '@mui/icons-material/CloudQueue';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import DnsIcon from '@mui/icons-material/Dns';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useMemo, useState } from 'react';
import type { Instance, LaunchConfigInput } from '../../../contract/instances';
import {
  INSTANCE_ERRORS,
  launchErrorMessage,
  terminateErrorMessage,
  useEmergencyStop,
  useInstancesPage,
  useLaunchInstance,
  useTerminateInstances,
} from '../../api/instances';
import { errorFields } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { ListPagination, usePageInRange } from '../../components/ListPagination';
import { PageHeader } from '../../components/PageHeader';
import { StatCard } from '../../components/StatCard';
import { useLive } from '../../live/context';
import { fieldsUnder } from '../../lib/field-errors';
import { nextSort } from '../../lib/list-view';
import { useUrlParams } from '../../lib/url-params';
import { useNotify } from '../../notifications/context';
import { CostCard } from './CostCard';
import { DetailsDialog } from './DetailsDialog';
import { EmergencyStopButton } from './EmergencyStopButton';
import { fleetSummary, isActive, terminateSelectedMessage } from './fleet';
import { instancesQueryOfView, instancesViewFromParams } from './instances-view';
import { InstancesTable } from './InstancesTable';
import { InstancesToolbar } from './InstancesToolbar';
import { LaunchDialog } from './LaunchDialog';
import { LogsDialog } from './LogsDialog';
import { useFleet } from './useFleet';

type TerminateTarget = { kind: 'selected'; ids: string[] } | { kind: 'one'; instance: Instance } | null;

/** The Instances page (docs/reference.md sections 2, 4, 5 and 8, Instances). */
export default function InstancesPage() {
  const { connected } = useLive();
  const fleet = useFleet();
  const notify = useNotify();
  const launch = useLaunchInstance();
  const terminate = useTerminateInstances();
  const emergency = useEmergencyStop();

  const [banner, setBanner] = useState<string | null>(null);
  const [dismissedListError, setDismissedListError] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [launchOpen, setLaunchOpen] = useState(false);
  const [launchKey, setLaunchKey] = useState(0);
  const [launchFailure, setLaunchFailure] = useState<unknown>(null);
  const [logsFor, setLogsFor] = useState<Instance | null>(null);
  const [detailsFor, setDetailsFor] = useState<Instance | null>(null);
  const [terminateTarget, setTerminateTarget] = useState<TerminateTarget>(null);
  const [emergencyOpen, setEmergencyOpen] = useState(false);

  const { params, update: updateView } = useUrlParams();
  const view = instancesViewFromParams(params);
  // The table shows the server's page of the fleet; the cards, the selection and the dialogs read the whole fleet.
  const shown = useInstancesPage(instancesQueryOfView(view));
  usePageInRange(shown.data?.total, view, updateView);
  const filtered = view.q.trim() !== '' || view.state !== null;

  const instances = useMemo(() => fleet.data ?? [], [fleet.data]);
  const summary = fleetSummary(instances);
  // The cards say "—" until the fleet has answered: an empty list before then is unknown, not zero.
  const counted = fleet.data ? summary : undefined;
  // Selections follow the fleet: an instance that stopped meanwhile is no longer selected.
  const selectedIds = instances
    .filter((instance) => isActive(instance) && selected.has(instance.id))
    .map((instance) => instance.id);
  /** The freshest copy of an instance a dialog was opened for. */
  const current = (instance: Instance | null) =>
    instance ? (instances.find((i) => i.id === instance.id) ?? instance) : null;
  // The fleet or the table's page, whichever failed.
  const failedRead = fleet.isError ? fleet : shown.isError ? shown : null;
  const listError = failedRead && failedRead.errorUpdatedAt !== dismissedListError ? INSTANCE_ERRORS.list : null;

  const openLaunch = () => {
    setLaunchFailure(null);
    setLaunchKey((key) => key + 1);
    setLaunchOpen(true);
  };

  const submitLaunch = (config: LaunchConfigInput) => {
    setLaunchFailure(null);
    launch.mutate(config, {
      onSuccess: (response) => {
        setLaunchOpen(false);
        notify.success(response.message);
      },
      onError: setLaunchFailure,
    });
  };

  const confirmTerminate = () => {
    if (!terminateTarget) return;
    const ids = terminateTarget.kind === 'selected' ? terminateTarget.ids : [terminateTarget.instance.id];
    terminate.mutate(ids, {
      onSuccess: (response) => {
        notify.success(response.message);
        setSelected((previous) => new Set([...previous].filter((id) => !ids.includes(id))));
      },
      onError: (error) => setBanner(terminateErrorMessage(error)),
      onSettled: () => setTerminateTarget(null),
    });
  };

  const confirmEmergencyStop = () => {
    emergency.mutate(undefined, {
      onSuccess: (response) => {
        notify.warning(response.message);
        setSelected(new Set());
      },
      onError: () => setBanner(INSTANCE_ERRORS.emergencyStop),
      onSettled: () => setEmergencyOpen(false),
    });
  };

  return (
    <Box sx={{ pb: 10 }}>
      <PageHeader
        title="Instances"
        actions={
          <>
            <Chip
              label={`Connected: ${connected ? 'Yes' : 'No'}`}
              color={connected ? 'success' : 'default'}
              variant={connected ? 'filled' : 'outlined'}
              size="small"
            />
            {selectedIds.length > 0 && (
              <Button
                variant="contained"
                color="error"
                startIcon={<DeleteSweepIcon />}
                onClick={() => setTerminateTarget({ kind: 'selected', ids: selectedIds })}
                disabled={terminate.isPending}
              >
                Terminate Selected ({selectedIds.length})
              </Button>
            )}
            <Tooltip title="Refresh">
              <span>
                <IconButton
                  aria-label="Refresh"
                  onClick={() => void Promise.all([fleet.refetch(), shown.refetch()])}
                  disabled={fleet.isFetching || shown.isFetching}
                >
                  <RefreshIcon />
                </IconButton>
              </span>
            </Tooltip>
            <Button variant="contained" startIcon={<AddIcon />} onClick={openLaunch}>
              Launch Instance
            </Button>
          </>
        }
      />
      <ErrorBanner
        message={banner ?? listError}
        onClose={() => (banner ? setBanner(null) : setDismissedListError(failedRead?.errorUpdatedAt ?? 0))}
      />
      <Grid container spacing={2} sx={{ mb: 3 }}>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard title="Running" value={counted?.running} icon={<PlayCircleIcon />} color="success" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard title="Pending" value={counted?.pending} icon={<HourglassTopIcon />} color="warning" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard title="Total" value={counted?.total} icon={<DnsIcon />} color="primary" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <CostCard />
        </Grid>
      </Grid>
      <InstancesToolbar view={view} onView={updateView} />
      <InstancesTable
        instances={shown.data?.instances ?? []}
        loading={shown.isPending}
        sort={view.sort}
        order={view.order}
        onSort={(field) =>
          updateView((current) => ({ ...nextSort(instancesViewFromParams(current), field), page: null }))
        }
        selected={new Set(selectedIds)}
        onSelectedChange={setSelected}
        onDetails={setDetailsFor}
        onLogs={setLogsFor}
        onTerminate={(instance) => setTerminateTarget({ kind: 'one', instance })}
        empty={
          filtered ? (
            <EmptyState
              icon={<CloudQueueIcon />}
              title="No instances match"
              description="Change the search or the state filter"
            />
          ) : (
            <EmptyState
              icon={<CloudQueueIcon />}
              title="No instances found"
              description="Launch your first instance to get started"
            />
          )
        }
      />
      <ListPagination total={shown.data?.total ?? 0} view={view} onView={updateView} />
      <EmergencyStopButton
        disabled={summary.running === 0}
        busy={emergency.isPending}
        onClick={() => setEmergencyOpen(true)}
      />

      {launchOpen && (
        <LaunchDialog
          key={launchKey}
          busy={launch.isPending}
          error={launchFailure === null ? null : launchErrorMessage(launchFailure)}
          serverErrors={fieldsUnder(errorFields(launchFailure), 'configs.0.')}
          onDismissError={() => setLaunchFailure(null)}
          onCancel={() => setLaunchOpen(false)}
          onLaunch={submitLaunch}
        />
      )}
      {detailsFor && (
        <DetailsDialog
          instance={current(detailsFor) ?? detailsFor}
          onClose={() => setDetailsFor(null)}
          onLogs={setLogsFor}
          onTerminate={(instance) => setTerminateTarget({ kind: 'one', instance })}
        />
      )}
      {logsFor && <LogsDialog instance={current(logsFor) ?? logsFor} onClose={() => setLogsFor(null)} />}
      <ConfirmDialog
        open={terminateTarget !== null}
        title={terminateTarget?.kind === 'selected' ? 'Terminate Selected Instances' : 'Terminate Instance'}
        message={
          terminateTarget?.kind === 'selected'
            ? terminateSelectedMessage(terminateTarget.ids.length)
            : `Are you sure you want to terminate instance ${terminateTarget?.instance.name ?? ''}? This action cannot be undone.`
        }
        confirmLabel="Terminate"
        confirmColor="error"
        busy={terminate.isPending}
        onConfirm={confirmTerminate}
        onCancel={() => setTerminateTarget(null)}
      />
      <ConfirmDialog
        open={emergencyOpen}
        title="Emergency Stop"
        message={`This terminates every running and pending instance (${summary.total}) at once. Recordings in progress are closed as partial files. This action cannot be undone.`}
        confirmLabel="Stop All Instances"
        confirmColor="error"
        busy={emergency.isPending}
        onConfirm={confirmEmergencyStop}
        onCancel={() => setEmergencyOpen(false)}
      />
    </Box>
  );
}
