import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import type { SchedulerPrayerTime } from '../../../contract/scheduler';
import { operatorTime, zoneAbbreviation, zonedDate, zonedTime } from './zoned-time';

/** adhan's method names as people read them; `Fixed`: the mosque's own Jumu'ah time. */
export function methodLabel(method: string): string {
  if (method === 'Fixed') return "Fixed Jumu'ah time";
  return method.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** "Europe/London (GMT)": the zone and its abbreviation on that Friday. */
export function zoneLabel(record: SchedulerPrayerTime): string {
  return `${record.timezone} (${zoneAbbreviation(record.friday_prayer, record.timezone)})`;
}

function Line({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.25 }}>
      <Typography variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ textAlign: 'right' }}>
        {value}
        {detail && (
          <Typography
            component="span"
            variant="body2"
            color="textSecondary"
            sx={{ display: 'block', fontSize: '0.8rem' }}
          >
            {detail}
          </Typography>
        )}
      </Typography>
    </Box>
  );
}

/** One mosque's coming Friday prayer, on the mosque's clock and the operator's. */
export function PrayerTimeCard({ record, onClose }: { record: SchedulerPrayerTime; onClose: () => void }) {
  const zone = record.timezone;
  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={record.mosque_name}
      sx={{ maxWidth: 420, bgcolor: 'background.default' }}
    >
      <CardHeader
        title={record.mosque_name}
        subheader={zonedDate(record.friday_prayer, zone)}
        slotProps={{ title: { variant: 'subtitle1', component: 'h3', sx: { fontWeight: 500 } } }}
        action={
          <IconButton aria-label={`Close the prayer time of ${record.mosque_name}`} onClick={onClose}>
            <CloseIcon />
          </IconButton>
        }
        sx={{ pb: 0 }}
      />
      <CardContent>
        <Line label="Friday prayer" value={zonedTime(record.friday_prayer, zone)} />
        <Line
          label="Recording starts"
          value={zonedTime(record.recording_start, zone)}
          detail={`Your time: ${operatorTime(record.recording_start)}`}
        />
        <Line label="Timezone" value={zoneLabel(record)} />
        <Line label="Method" value={methodLabel(record.calculation_method)} />
      </CardContent>
    </Card>
  );
}
