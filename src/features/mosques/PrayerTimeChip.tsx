import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import type { PrayerTimeRecord } from '../../../contract/mosques';
import { methodLabel } from './methods';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';

/** The Friday date in the mosque's zone, e.g. "Fri 9 Jan 2026"; the UTC date when the zone is unknown here. */
function fridayDate(record: PrayerTimeRecord): string {
  const options: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' };
  try {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: record.timezone }).format(
      new Date(record.friday_prayer),
    );
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(new Date(record.friday_prayer));
  }
}

/** The next Friday prayer as a time chip; the tooltip tells the date, recording start, zone and method. */
export function PrayerTimeChip({ record }: { record: PrayerTimeRecord | undefined }) {
  if (!record) return <Chip size="small" variant="outlined" label="Pending" color="warning" />;
  const details = (
    <Box sx={{ py: 0.5 }}>
      <div>
        Friday prayer: {fridayDate(record)}, {record.prayer_time}
      </div>
      <div>Recording starts: {record.recording_time}</div>
      <div>Timezone: {record.timezone}</div>
      <div>Method: {methodLabel(record.calculation_method)}</div>
    </Box>
  );
  return (
    <Tooltip title={details} {...TOOLTIP_DELAYS} arrow>
      <Chip size="small" color="info" icon={<AccessTimeIcon />} label={record.prayer_time} tabIndex={0} />
    </Tooltip>
  );
}
