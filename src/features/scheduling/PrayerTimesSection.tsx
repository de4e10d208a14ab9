import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { SchedulerPrayerTime } from '../../../contract/scheduler';
import { EmptyState } from '../../components/EmptyState';
import { Section } from './Section';
import { operatorTime, zoneAbbreviation, zonedDate, zonedTime } from './zoned-time';

/** adhan's method names as people read them; `Fixed`: the mosque's own Jumu'ah time. */
function methodLabel(method: string): string {
  if (method === 'Fixed') return "Fixed Jumu'ah time";
  return method.replace(/([a-z])([A-Z])/g, '$1 $2');
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

function PrayerTimeCard({ record }: { record: SchedulerPrayerTime }) {
  const zone = record.timezone;
  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={record.mosque_name}
      sx={{ height: '100%', bgcolor: 'background.default' }}
    >
      <CardContent>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 500 }} noWrap title={record.mosque_name}>
          {record.mosque_name}
        </Typography>
        <Typography variant="body2" color="textSecondary" gutterBottom>
          {zonedDate(record.friday_prayer, zone)}
        </Typography>
        <Line label="Friday prayer" value={zonedTime(record.friday_prayer, zone)} />
        <Line
          label="Recording starts"
          value={zonedTime(record.recording_start, zone)}
          detail={`Your time: ${operatorTime(record.recording_start)}`}
        />
        <Line label="Timezone" value={`${zone} (${zoneAbbreviation(record.friday_prayer, zone)})`} />
        <Line label="Method" value={methodLabel(record.calculation_method)} />
      </CardContent>
    </Card>
  );
}

/** Prayer Times (docs/reference.md section 2, Scheduling): one card per mosque, for the coming Friday. */
export function PrayerTimesSection({ prayerTimes, loading }: { prayerTimes: SchedulerPrayerTime[]; loading: boolean }) {
  return (
    <Section id="prayer-times" title="Prayer Times" count={prayerTimes.length} loading={loading}>
      {prayerTimes.length === 0 ? (
        <EmptyState
          title={loading ? 'Loading prayer times...' : 'No prayer times'}
          description={
            loading
              ? undefined
              : "Active mosques with coordinates or a fixed Jumu'ah time get one here (Config Generator)."
          }
        />
      ) : (
        <Box sx={{ p: 2, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 2 }}>
          {prayerTimes.map((record) => (
            <PrayerTimeCard key={record.mosque_id} record={record} />
          ))}
        </Box>
      )}
    </Section>
  );
}
