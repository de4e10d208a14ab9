import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/Cancel';
import type { Job, JobStatus } from '../../../contract/scheduler';
import { EmptyState } from '../../components/EmptyState';
import { SCHEDULER_MESSAGES, schedulerErrorMessage, useSchedulerJobsPage } from '../../api/scheduler';
import { ErrorBanner } from '../../components/ErrorBanner';
import { ListPagination, usePageInRange } from '../../components/ListPagination';
import { listViewFromParams } from '../../lib/list-view';
import { useScopedUrlParams } from '../../lib/url-params';
import { Section } from './Section';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { zoneAbbreviation, zonedDateTime } from './zoned-time';
import { CaptureDayChip } from './CaptureDayChip';

interface ActiveJobsSectionProps {
  /** Polling interval (ms) or false (Auto Refresh off). */
  polling: number | false;
  cancelling: string | null;
  onCancel: (job: Job) => void;
}

const STATUS_COLORS: Record<JobStatus, ChipProps['color']> = {
  scheduled: 'primary',
  launching: 'info',
  launched: 'info',
  captured: 'success',
  partial: 'warning',
  cancelled: 'default',
  missed: 'error',
  failed: 'error',
};

/** Why a job offers no cancel, or null when it does. */
export function cancelBlocked(job: Job): string | null {
  if (job.kind === 'recurring') return 'The recurring job cannot be cancelled: stop the scheduler to pause scheduling';
  if (job.status !== 'scheduled') return 'Only jobs waiting to run can be cancelled';
  return null;
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Typography
      component="span"
      variant="body2"
      color="textSecondary"
      sx={{ display: 'block', overflowWrap: 'anywhere' }}
    >
      {label}:{' '}
      <Box component="span" sx={{ color: 'text.primary' }}>
        {value}
      </Box>
    </Typography>
  );
}

function JobItem({ job, cancelling, onCancel }: { job: Job; cancelling: boolean; onCancel: () => void }) {
  const blocked = cancelBlocked(job);
  const nextRun = job.next_run_time
    ? `${zonedDateTime(job.next_run_time)} ${zoneAbbreviation(job.next_run_time)}`
    : 'None';
  return (
    <ListItem
      divider
      aria-label={job.name}
      sx={{ alignItems: 'flex-start', pr: 8 }}
      secondaryAction={
        <Tooltip title={blocked ?? 'Cancel job'} describeChild {...TOOLTIP_DELAYS}>
          <span>
            <IconButton
              edge="end"
              color="error"
              aria-label={`Cancel job ${job.id}`}
              onClick={onCancel}
              disabled={blocked !== null || cancelling}
            >
              <CancelIcon />
            </IconButton>
          </span>
        </Tooltip>
      }
    >
      <Box sx={{ minWidth: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 0.5 }}>
          <Typography variant="body1" sx={{ fontWeight: 500 }}>
            {job.name}
          </Typography>
          <Chip
            size="small"
            label={job.status}
            color={STATUS_COLORS[job.status]}
            sx={{ textTransform: 'capitalize' }}
          />
          {job.late && <Chip size="small" variant="outlined" color="warning" label="Late" />}
          {job.kind === 'recording' && <CaptureDayChip jobId={job.id} />}
        </Box>
        <Fact label="Function" value={job.func} />
        <Fact label="Next run" value={nextRun} />
        <Fact label="Trigger" value={job.trigger} />
        {job.last_error && (
          <Typography
            component="span"
            variant="body2"
            color="error"
            sx={{ display: 'block', overflowWrap: 'anywhere' }}
          >
            {job.last_error}
          </Typography>
        )}
      </Box>
    </ListItem>
  );
}

/**
 * Active Jobs (docs/reference.md section 2, Scheduling): function, next run, trigger and cancel of each job the
 * scheduler holds, waiting ones first, paged on the server (a fleet's Friday is 10,000 jobs), the page in the
 * address under `jobs.`.
 */
export function ActiveJobsSection({ polling, cancelling, onCancel }: ActiveJobsSectionProps) {
  const { params, update } = useScopedUrlParams('jobs');
  const view = listViewFromParams(params, []);
  const page = useSchedulerJobsPage({ limit: view.size, offset: view.page * view.size }, polling);
  usePageInRange(page.data?.total, view, update);
  const jobs = page.data?.jobs ?? [];
  return (
    <Section id="active-jobs" title="Active Jobs" count={page.data?.total} loading={page.isFetching}>
      <ErrorBanner message={page.isError ? schedulerErrorMessage(page.error, SCHEDULER_MESSAGES.loadFailed) : null} />
      {jobs.length === 0 ? (
        <EmptyState title={page.isPending ? 'Loading jobs...' : 'No jobs'} />
      ) : (
        <List aria-label="Scheduler jobs" disablePadding>
          {jobs.map((job) => (
            <JobItem key={job.id} job={job} cancelling={cancelling === job.id} onCancel={() => onCancel(job)} />
          ))}
        </List>
      )}
      <ListPagination total={page.data?.total ?? 0} view={view} onView={update} />
    </Section>
  );
}
