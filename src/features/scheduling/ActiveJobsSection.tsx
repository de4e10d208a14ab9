import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import TablePagination from '@mui/material/TablePagination';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/Cancel';
import { useMemo } from 'react';
import type { Job, JobStatus } from '../../../contract/scheduler';
import { EmptyState } from '../../components/EmptyState';
import { PAGE_SIZES, usePaging } from '../../lib/paging';
import { Section } from './Section';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { zoneAbbreviation, zonedDateTime } from './zoned-time';

interface ActiveJobsSectionProps {
  jobs: Job[];
  loading: boolean;
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

const waiting = (job: Job) => job.status === 'scheduled' || job.status === 'launching';

/** Jobs waiting to run first (soonest first), then the finished ones (latest first). */
export function sortJobs(jobs: readonly Job[]): Job[] {
  return [...jobs].sort((a, b) => {
    if (waiting(a) !== waiting(b)) return waiting(a) ? -1 : 1;
    if (waiting(a))
      return (a.next_run_time ?? '\uffff').localeCompare(b.next_run_time ?? '\uffff') || a.id.localeCompare(b.id);
    return b.updated_at.localeCompare(a.updated_at) || a.id.localeCompare(b.id);
  });
}

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

/** Active Jobs (docs/reference.md section 2, Scheduling): function, next run, trigger and cancel of each job the scheduler holds. */
export function ActiveJobsSection({ jobs, loading, cancelling, onCancel }: ActiveJobsSectionProps) {
  const sorted = useMemo(() => sortJobs(jobs), [jobs]);
  const paging = usePaging(sorted.length);
  return (
    <Section id="active-jobs" title="Active Jobs" count={jobs.length} loading={loading}>
      {sorted.length === 0 ? (
        <EmptyState title={loading ? 'Loading jobs...' : 'No jobs'} />
      ) : (
        <>
          <List aria-label="Scheduler jobs" disablePadding>
            {paging.slice(sorted).map((job) => (
              <JobItem key={job.id} job={job} cancelling={cancelling === job.id} onCancel={() => onCancel(job)} />
            ))}
          </List>
          <TablePagination
            component="div"
            count={sorted.length}
            page={paging.page}
            rowsPerPage={paging.rowsPerPage}
            rowsPerPageOptions={[...PAGE_SIZES]}
            onPageChange={(_event, page) => paging.setPage(page)}
            onRowsPerPageChange={(event) => paging.setRowsPerPage(Number(event.target.value))}
          />
        </>
      )}
    </Section>
  );
}
