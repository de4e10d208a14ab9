import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import type { FridayRow, FridaySortField } from '../../../../contract/fridays';
import { SortableHeaderRow, type HeaderColumn } from '../../../components/SortableHeaderRow';
import { HolesRow, HolesToggle, useOpenHoles } from '../../../components/RecordingHoles';
import { StoppedChip } from '../../../components/StoppedChip';
import { ActionsCell, TableMessageRow } from '../../../components/TableParts';
import { holesOf } from '../../../lib/gap-causes';
import { zonedDateTime } from '../zoned-time';
import { coverageText, FRIDAY_STATUS_COLORS, FRIDAY_STATUS_LABELS } from '../../../lib/friday-status';
import { countOf } from '../../../../contract/plural';

const COLUMNS: readonly HeaderColumn<FridaySortField>[] = [
  { label: 'Mosque', sortKey: 'mosque_name' },
  { label: 'Status', sortKey: 'status' },
  { label: 'Recording Start', sortKey: 'recording_start' },
  { label: 'Coverage', sortKey: 'covered_seconds' },
  { label: 'Reason' },
  { label: 'Actions' },
];

interface FridaysTableProps {
  rows: FridayRow[];
  loading: boolean;
  sort: FridaySortField | null;
  order: 'asc' | 'desc';
  onSort: (field: FridaySortField) => void;
  now: Date;
  /** The job being restored, if any. */
  restoring: string | null;
  onRestore: (row: FridayRow) => void;
}

function Coverage({ row }: { row: FridayRow }) {
  const text = coverageText(row);
  if (text === null || !row.expected_seconds)
    return (
      <Typography variant="body2" color="textSecondary">
        —
      </Typography>
    );
  const value = Math.min(100, ((row.covered_seconds ?? 0) / row.expected_seconds) * 100);
  // An operator's stop is no shortfall to colour as one.
  const color = row.stopped_by
    ? 'inherit'
    : row.status === 'captured'
      ? 'success'
      : row.status === 'recording'
        ? 'info'
        : row.status === 'partial'
          ? 'warning'
          : 'error';
  return (
    <Box sx={{ minWidth: 160 }}>
      <LinearProgress
        variant="determinate"
        value={value}
        color={color}
        aria-label={`Coverage of ${row.mosque_name}`}
        sx={{ height: 8, borderRadius: 1 }}
      />
      <Typography variant="body2" color="textSecondary" sx={{ fontSize: '0.8rem', mt: 0.5 }}>
        {text}
      </Typography>
    </Box>
  );
}

/**
 * One row per active mosque: its Friday's status (or who stopped its recording), coverage bar with the holes
 * of its recording (listed under the row on demand), the reason it fell short, and Restore for a cancelled one.
 */
export function FridaysTable({ rows, loading, sort, order, onSort, now, restoring, onRestore }: FridaysTableProps) {
  const holesOpen = useOpenHoles();
  return (
    <TableContainer>
      <Table aria-label="Fridays" size="small" sx={{ minWidth: 800 }}>
        <SortableHeaderRow columns={COLUMNS} sort={sort} order={order} onSort={onSort} />
        <TableBody>
          {rows.length === 0 && (
            <TableMessageRow colSpan={COLUMNS.length}>
              {loading ? 'Loading Fridays...' : 'No mosques match'}
            </TableMessageRow>
          )}
          {rows.map((row) => {
            const restorable =
              row.status === 'cancelled' &&
              row.job_id !== null &&
              row.window_end !== null &&
              Date.parse(row.window_end) > now.getTime();
            const holes = holesOf(row.gaps);
            const showHoles = holes.length > 0 && holesOpen.isOpen(row.mosque_id);
            return (
              <Fragment key={row.mosque_id}>
                <TableRow hover>
                  <TableCell>
                    <Typography variant="body2" sx={{ fontWeight: 500 }}>
                      {row.mosque_name}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {row.stopped_by ? (
                      <StoppedChip by={row.stopped_by} />
                    ) : (
                      <Chip
                        size="small"
                        label={FRIDAY_STATUS_LABELS[row.status]}
                        color={FRIDAY_STATUS_COLORS[row.status]}
                      />
                    )}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {row.recording_start ? zonedDateTime(row.recording_start) : '—'}
                  </TableCell>
                  <TableCell>
                    <Coverage row={row} />
                    <HolesToggle
                      rowId={row.mosque_id}
                      holes={holes}
                      open={showHoles}
                      onToggle={() => holesOpen.toggle(row.mosque_id)}
                    />
                  </TableCell>
                  <TableCell sx={{ maxWidth: 360 }}>
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {row.reason ?? ''}
                    </Typography>
                    {row.alarm_ids.length > 0 && (
                      <Typography variant="body2" color="error" sx={{ fontSize: '0.8rem' }}>
                        {countOf(row.alarm_ids.length, 'alarm')}
                      </Typography>
                    )}
                  </TableCell>
                  <ActionsCell>
                    {restorable && (
                      <Button
                        size="small"
                        onClick={() => onRestore(row)}
                        disabled={restoring === row.job_id}
                        aria-label={`Restore recording for ${row.mosque_name}`}
                      >
                        Restore
                      </Button>
                    )}
                  </ActionsCell>
                </TableRow>
                {showHoles && (
                  <HolesRow
                    rowId={row.mosque_id}
                    colSpan={COLUMNS.length}
                    holes={holes}
                    of={`${row.mosque_name} on ${row.friday}`}
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
