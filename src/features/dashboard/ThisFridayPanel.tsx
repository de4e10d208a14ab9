import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { FRIDAY_STATUSES } from '../../../contract/fridays';
import { SCHEDULER_MESSAGES, SCHEDULER_REFRESH_MS, schedulerErrorMessage, useFridaysPage } from '../../api/scheduler';
import { countByStatus, FRIDAY_STATUS_COLORS, FRIDAY_STATUS_LABELS, fridaysLink } from '../../lib/friday-status';
import { countOf } from '../../../contract/plural';

/** The counts come with any page of the ledger: one row is asked, not the whole fleet's. */
const COUNTS_ONLY = { limit: 1 };

/** This Friday: how many active mosques' sermons are in each state; each count opens the Fridays view filtered by it. */
export function ThisFridayPanel() {
  const ledger = useFridaysPage(COUNTS_ONLY, SCHEDULER_REFRESH_MS);
  const counts = ledger.data?.counts ?? countByStatus([]);
  const mosques = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const friday = ledger.data?.friday;
  return (
    <Card component="section" aria-labelledby="this-friday-title">
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: 1.5, mb: 2 }}>
          <Typography id="this-friday-title" variant="h6" component="h2">
            This Friday
          </Typography>
          {friday && (
            <Typography variant="body2" color="textSecondary">
              {`${friday} · ${countOf(mosques, 'active mosque')}`}
            </Typography>
          )}
        </Box>
        {ledger.isPending && <Skeleton height={32} />}
        {ledger.isError && (
          <Typography color="error" variant="body2">
            {schedulerErrorMessage(ledger.error, SCHEDULER_MESSAGES.fridaysFailed)}
          </Typography>
        )}
        {ledger.data && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            {FRIDAY_STATUSES.map((status) => (
              <Chip
                key={status}
                component={RouterLink}
                to={fridaysLink(status, friday)}
                clickable
                label={`${FRIDAY_STATUS_LABELS[status]}: ${counts[status]}`}
                color={counts[status] > 0 ? FRIDAY_STATUS_COLORS[status] : 'default'}
                variant={counts[status] > 0 ? 'filled' : 'outlined'}
                aria-label={`${FRIDAY_STATUS_LABELS[status]}: ${countOf(counts[status], 'mosque')}`}
              />
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
