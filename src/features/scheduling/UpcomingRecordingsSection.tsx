import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import type { UpcomingRecording } from '../../../contract/scheduler';
import { PAGE_SIZES, usePaging } from '../../lib/paging';
import { Section } from './Section';
import { TimingIcon } from './TimingIcon';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { operatorTime, zoneAbbreviation, zonedDateTime, zonedTime } from './zoned-time';
import { ActionsCell, TableHeaderRow } from '../../components/TableParts';
import { CaptureDayChip } from './CaptureDayChip';
import { MosqueName } from '../../widgets/MosqueName';

interface UpcomingRecordingsSectionProps {
  recordings: UpcomingRecording[];
  loading: boolean;
  running: boolean | undefined;
  /** Recordings waiting in all (the list holds at most the next 20). */
  total: number | undefined;
  now: Date;
  /** The job being cancelled, if any. */
  cancelling: string | null;
  onCancel: (recording: UpcomingRecording) => void;
}

/** Shown above the list while the scheduler is stopped: nothing in it starts until it runs again. */
export const STOPPED_WARNING = 'The scheduler is stopped: these recordings will not start until it is started again.';

const COLUMNS = ['Mosque', 'Recording Time', 'Prayer Time', 'Timezone', 'Actions'];

function Secondary({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="textSecondary" sx={{ fontSize: '0.8rem' }}>
      {children}
    </Typography>
  );
}

/** A launch in progress, or a failed one waiting for its retry. */
function LaunchState({ recording }: { recording: UpcomingRecording }) {
  if (recording.status === 'launching') return <Chip size="small" color="info" label="Launching" sx={{ mt: 0.5 }} />;
  if (recording.attempts === 0) return null;
  const retry = `Attempt ${recording.attempts} failed${recording.last_error ? `: ${recording.last_error}` : ''}. Next try ${zonedTime(recording.next_run_time)} (your time).`;
  return (
    <Tooltip title={retry} {...TOOLTIP_DELAYS}>
      <Chip size="small" color="warning" label={`Retrying (${recording.attempts})`} tabIndex={0} sx={{ mt: 0.5 }} />
    </Tooltip>
  );
}

/**
 * Upcoming Recordings (docs/reference.md section 2, Scheduling): paged 10/25/50/100, each time on the mosque's own
 * clock with its zone, the operator's own time beneath, and the timing icon of docs/reference.md section 4.
 */
export function UpcomingRecordingsSection({
  recordings,
  loading,
  running,
  total,
  now,
  cancelling,
  onCancel,
}: UpcomingRecordingsSectionProps) {
  const paging = usePaging(recordings.length);
  const more = total !== undefined && total > recordings.length ? total : null;
  return (
    <Section id="upcoming-recordings" title="Upcoming Recordings" count={recordings.length} loading={loading}>
      {running === false && recordings.length > 0 && (
        <Alert severity="warning" sx={{ borderRadius: 0 }}>
          {STOPPED_WARNING}
        </Alert>
      )}
      <TableContainer>
        <Table aria-label="Upcoming recordings" size="small" sx={{ minWidth: 720 }}>
          <TableHeaderRow columns={COLUMNS} />
          <TableBody>
            {recordings.length === 0 && (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {loading ? 'Loading upcoming recordings...' : 'No upcoming recordings'}
                  {!loading && (
                    <Secondary>
                      {running === false
                        ? 'Start the scheduler, then schedule Friday recordings.'
                        : 'Schedule Friday recordings to see them here.'}
                    </Secondary>
                  )}
                </TableCell>
              </TableRow>
            )}
            {paging.slice(recordings).map((recording) => (
              <TableRow key={recording.job_id} hover>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {/* A one-off's job holds no mosque name: it is looked up by id (N/A for a capture of no mosque). */}
                    {recording.mosque_name || <MosqueName mosqueId={recording.mosque_id || null} />}
                  </Typography>
                  <CaptureDayChip jobId={recording.job_id} />
                  <LaunchState recording={recording} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <TimingIcon time={recording.recording_time} now={now} />
                    <Box>
                      <Typography variant="body2">
                        {zonedDateTime(recording.recording_time, recording.timezone)}
                      </Typography>
                      <Secondary>{`Your time: ${operatorTime(recording.recording_time)}`}</Secondary>
                    </Box>
                  </Box>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {zonedTime(recording.prayer_time, recording.timezone)}
                </TableCell>
                <TableCell>
                  <Typography variant="body2">{recording.timezone}</Typography>
                  <Secondary>{zoneAbbreviation(recording.recording_time, recording.timezone)}</Secondary>
                </TableCell>
                <ActionsCell>
                  <Tooltip title="Cancel recording" describeChild {...TOOLTIP_DELAYS}>
                    <span>
                      <IconButton
                        aria-label={`Cancel recording for ${recording.mosque_name || recording.mosque_id || recording.job_id}`}
                        color="error"
                        size="small"
                        onClick={() => onCancel(recording)}
                        disabled={recording.status !== 'scheduled' || cancelling === recording.job_id}
                      >
                        <EventBusyIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </ActionsCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {recordings.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', pl: 2 }}>
          <Typography variant="body2" color="textSecondary">
            {more !== null ? `The next ${recordings.length} of ${more} scheduled recordings` : ''}
          </Typography>
          <TablePagination
            component="div"
            count={recordings.length}
            page={paging.page}
            rowsPerPage={paging.rowsPerPage}
            rowsPerPageOptions={[...PAGE_SIZES]}
            onPageChange={(_event, page) => paging.setPage(page)}
            onRowsPerPageChange={(event) => paging.setRowsPerPage(Number(event.target.value))}
          />
        </Box>
      )}
    </Section>
  );
}
