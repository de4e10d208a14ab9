import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Fragment, type ReactNode } from 'react';
import type { LibraryRecording, RecordingSortField } from '../../../contract/recordings';
import { HolesRow, HolesToggle, useOpenHoles } from '../../components/RecordingHoles';
import { SortableHeaderRow, type HeaderColumn } from '../../components/SortableHeaderRow';
import { StoppedChip } from '../../components/StoppedChip';
import { TableMessageRow, WIDE_SCREEN_CELL, SelectPageCell } from '../../components/TableParts';
import { holesOf } from '../../lib/gap-causes';
import { formatBytes, formatMediaDuration, RECORDING_OUTCOMES } from '../../lib/recording-outcome';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { CoverageBar } from './CoverageBar';
import { isOneOffCapture } from '../../../contract/scheduler';

/** Below md (a tablet, the drawer closed) Size and Store give their room, so Play, Download and Delete stay in view. */
const COLUMNS: readonly HeaderColumn<RecordingSortField>[] = [
  { label: 'Day', sortKey: 'friday' },
  { label: 'Mosque', sortKey: 'mosque' },
  { label: 'Outcome', sortKey: 'status' },
  { label: 'Coverage' },
  { label: 'Duration', sortKey: 'duration_seconds' },
  { label: 'Size', sortKey: 'bytes', wideScreenOnly: true },
  { label: 'Store', wideScreenOnly: true },
  { label: 'Actions' },
];
const COLUMN_COUNT = COLUMNS.length + 1;

const STORES = {
  local: { label: 'Local', title: "On the server's disk" },
  s3: { label: 'S3', title: 'In the bucket: played through a short-lived pre-signed link' },
} as const;

interface RecordingsTableProps {
  recordings: LibraryRecording[];
  loading: boolean;
  sort: RecordingSortField | null;
  order: 'asc' | 'desc';
  onSort: (field: RecordingSortField) => void;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], selected: boolean) => void;
  canDelete: boolean;
  onPlay: (recording: LibraryRecording) => void;
  onDownload: (recording: LibraryRecording) => void;
  onDelete: (recording: LibraryRecording) => void;
}

function Action({
  title,
  disabled,
  onClick,
  children,
}: {
  title: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={title} describeChild {...TOOLTIP_DELAYS}>
      <span>
        <IconButton aria-label={title} size="small" disabled={disabled} onClick={onClick}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

export function RecordingsTable({
  recordings,
  loading,
  sort,
  order,
  onSort,
  selected,
  onSelect,
  canDelete,
  onPlay,
  onDownload,
  onDelete,
}: RecordingsTableProps) {
  const holesOpen = useOpenHoles();
  const pageIds = recordings.map((recording) => recording.id);
  const selectedOnPage = pageIds.filter((id) => selected.has(id)).length;
  return (
    <TableContainer>
      <Table
        aria-label="Recordings"
        size="small"
        sx={{ minWidth: { md: 860 }, '& td, & th': { px: { xs: 1, lg: 2 } } }}
      >
        <SortableHeaderRow
          columns={COLUMNS}
          sort={sort}
          order={order}
          onSort={onSort}
          leading={
            <SelectPageCell
              label="Select every recording on this page"
              pageIds={pageIds}
              selectedOnPage={selectedOnPage}
              onSelect={onSelect}
            />
          }
        />
        <TableBody>
          {recordings.length === 0 && (
            <TableMessageRow colSpan={COLUMN_COUNT}>
              {loading ? 'Loading recordings...' : 'No recordings match'}
            </TableMessageRow>
          )}
          {recordings.map((recording) => {
            const outcome = RECORDING_OUTCOMES[recording.status];
            const who = recording.mosque_name ?? recording.mosque_id ?? 'Ad-hoc capture';
            const holes = holesOf(recording.gaps);
            const showHoles = holes.length > 0 && holesOpen.isOpen(recording.id);
            return (
              <Fragment key={recording.id}>
                <TableRow hover selected={selected.has(recording.id)}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      slotProps={{ input: { 'aria-label': `Select recording ${recording.id}` } }}
                      checked={selected.has(recording.id)}
                      onChange={(event) => onSelect([recording.id], event.target.checked)}
                    />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {recording.friday}
                    {/* A one-off's day is its own, not a Friday's: said, so the two are never taken for each other. */}
                    <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
                      {isOneOffCapture(recording) ? 'one-off' : 'Friday'}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <Typography variant="body2" sx={{ fontWeight: 500 }}>
                      {who}
                    </Typography>
                    <Typography variant="caption" color="textSecondary">
                      {recording.id}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {recording.stopped_by ? (
                      <StoppedChip by={recording.stopped_by} />
                    ) : (
                      <Tooltip title={recording.reason ?? ''} {...TOOLTIP_DELAYS}>
                        <Chip size="small" label={outcome.label} color={outcome.color} />
                      </Tooltip>
                    )}
                  </TableCell>
                  <TableCell>
                    <CoverageBar recording={recording} />
                    <HolesToggle
                      rowId={recording.id}
                      holes={holes}
                      open={showHoles}
                      onToggle={() => holesOpen.toggle(recording.id)}
                    />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMediaDuration(recording.duration_seconds)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap', ...WIDE_SCREEN_CELL }}>
                    {formatBytes(recording.bytes)}
                  </TableCell>
                  <TableCell sx={WIDE_SCREEN_CELL}>
                    <Tooltip title={STORES[recording.store].title} {...TOOLTIP_DELAYS}>
                      <Chip size="small" variant="outlined" label={STORES[recording.store].label} />
                    </Tooltip>
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Action
                      title={`Play recording of ${who}`}
                      disabled={!recording.media_available}
                      onClick={() => onPlay(recording)}
                    >
                      <PlayArrowIcon fontSize="small" />
                    </Action>
                    <Action
                      title={`Download recording of ${who}`}
                      disabled={!recording.media_available}
                      onClick={() => onDownload(recording)}
                    >
                      <DownloadIcon fontSize="small" />
                    </Action>
                    {canDelete && (
                      <Action
                        title={`Delete recording of ${who}`}
                        disabled={recording.status === 'recording'}
                        onClick={() => onDelete(recording)}
                      >
                        <DeleteIcon fontSize="small" color={recording.status === 'recording' ? 'disabled' : 'error'} />
                      </Action>
                    )}
                  </TableCell>
                </TableRow>
                {showHoles && (
                  <HolesRow
                    rowId={recording.id}
                    colSpan={COLUMN_COUNT}
                    holes={holes}
                    of={`${who} on ${recording.friday}`}
                  />
                )}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
