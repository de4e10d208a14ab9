import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { PrayerTimeSortField } from '../../../contract/prayer-time-list';
import type { SchedulerPrayerTime } from '../../../contract/scheduler';
import { SortableHeaderRow, type HeaderColumn } from '../../components/SortableHeaderRow';
import { TableMessageRow, WIDE_SCREEN_CELL } from '../../components/TableParts';
import { methodLabel, zoneLabel } from './PrayerTimeCard';
import { operatorTime, zonedDate, zonedTime } from './zoned-time';

const COLUMNS: readonly HeaderColumn<PrayerTimeSortField>[] = [
  { label: 'Mosque', sortKey: 'mosque_name' },
  { label: 'Friday Prayer', sortKey: 'friday_prayer' },
  { label: 'Recording Starts', sortKey: 'recording_start' },
  { label: 'Timezone', sortKey: 'timezone' },
  { label: 'Method', wideScreenOnly: true },
];

interface PrayerTimesTableProps {
  rows: SchedulerPrayerTime[];
  loading: boolean;
  sort: PrayerTimeSortField | null;
  order: 'asc' | 'desc';
  onSort: (field: PrayerTimeSortField) => void;
  selected: string | null;
  onSelect: (record: SchedulerPrayerTime) => void;
}

/** One row per active mosque with a coming Friday prayer, on the mosque's clock; its name opens its card. */
export function PrayerTimesTable({ rows, loading, sort, order, onSort, selected, onSelect }: PrayerTimesTableProps) {
  return (
    <TableContainer>
      <Table aria-label="Prayer Times" size="small" sx={{ minWidth: 640 }}>
        <SortableHeaderRow columns={COLUMNS} sort={sort} order={order} onSort={onSort} />
        <TableBody>
          {rows.length === 0 && (
            <TableMessageRow colSpan={COLUMNS.length}>
              {loading
                ? 'Loading prayer times...'
                : "No prayer times: active mosques with coordinates or a fixed Jumu'ah time get one here"}
            </TableMessageRow>
          )}
          {rows.map((record) => {
            const zone = record.timezone;
            return (
              <TableRow key={record.mosque_id} hover selected={record.mosque_id === selected}>
                <TableCell>
                  <Link component="button" variant="body2" onClick={() => onSelect(record)} sx={{ fontWeight: 500 }}>
                    {record.mosque_name}
                  </Link>
                  <Typography variant="body2" color="textSecondary" sx={{ fontSize: '0.8rem' }}>
                    {record.mosque_id}
                  </Typography>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {zonedTime(record.friday_prayer, zone)}
                  <Typography variant="body2" color="textSecondary" sx={{ fontSize: '0.8rem' }}>
                    {zonedDate(record.friday_prayer, zone)}
                  </Typography>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {zonedTime(record.recording_start, zone)}
                  <Typography variant="body2" color="textSecondary" sx={{ fontSize: '0.8rem' }}>
                    {`Your time: ${operatorTime(record.recording_start)}`}
                  </Typography>
                </TableCell>
                <TableCell>{zoneLabel(record)}</TableCell>
                <TableCell sx={WIDE_SCREEN_CELL}>{methodLabel(record.calculation_method)}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
