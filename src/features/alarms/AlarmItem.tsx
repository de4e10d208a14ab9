import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ListedAlarm } from '../../../contract/alarms';
import { formatDateTime } from '../../lib/dates';
import { ALARM_KIND_LABELS, alarmState, alarmTitle, deliveryLabel } from './alarm-labels';

const STATE_COLORS = { Open: 'error', Acknowledged: 'warning', Resolved: 'success' } as const;
const SEVERITY_COLORS = { critical: 'error', warning: 'warning', info: 'info' } as const;
const DELIVERY_COLORS = { pending: 'default', retrying: 'warning', delivered: 'success', failed: 'error' } as const;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Typography component="span" variant="body2" color="textSecondary" sx={{ mr: 2, overflowWrap: 'anywhere' }}>
      {label}:{' '}
      <Box component="span" sx={{ color: 'text.primary' }}>
        {children}
      </Box>
    </Typography>
  );
}

/** One alarm: what, who, why, when, where it was delivered, links to the mosque and instance, Acknowledge. */
export function AlarmItem({
  alarm,
  acknowledging,
  onAcknowledge,
}: {
  alarm: ListedAlarm;
  acknowledging: boolean;
  onAcknowledge: () => void;
}) {
  const state = alarmState(alarm);
  const title = alarmTitle(alarm);
  return (
    <ListItem divider aria-label={`${ALARM_KIND_LABELS[alarm.kind]}: ${title}`} sx={{ display: 'block', py: 1.5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 0.5 }}>
        <Chip
          size="small"
          label={alarm.severity}
          color={SEVERITY_COLORS[alarm.severity]}
          sx={{ textTransform: 'capitalize' }}
        />
        <Typography sx={{ fontWeight: 500 }}>{ALARM_KIND_LABELS[alarm.kind]}</Typography>
        <Typography color="textSecondary">{title}</Typography>
        <Chip size="small" variant="outlined" label={state} color={STATE_COLORS[state]} />
        <Box sx={{ flexGrow: 1 }} />
        {state === 'Open' && (
          <Button
            size="small"
            variant="outlined"
            onClick={onAcknowledge}
            disabled={acknowledging}
            aria-label={`Acknowledge alarm: ${title}`}
          >
            Acknowledge
          </Button>
        )}
      </Box>
      <Typography sx={{ mb: 0.5, overflowWrap: 'anywhere' }}>{alarm.message}</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', rowGap: 0.5 }}>
        <Fact label="Raised">{formatDateTime(alarm.raised_at)}</Fact>
        {alarm.acknowledged_at && (
          <Fact label="Acknowledged">{`${formatDateTime(alarm.acknowledged_at)} by ${alarm.acknowledged_by ?? 'someone'}`}</Fact>
        )}
        {alarm.resolved_at && <Fact label="Resolved">{formatDateTime(alarm.resolved_at)}</Fact>}
        {alarm.mosque_id && (
          <Fact label="Mosque">
            <Link component={RouterLink} to="/config">
              {alarm.mosque_name ?? alarm.mosque_id}
            </Link>
          </Fact>
        )}
        {alarm.instance_id && (
          <Fact label="Instance">
            <Link component={RouterLink} to="/instances">
              {alarm.instance_id}
            </Link>
          </Fact>
        )}
      </Box>
      {alarm.deliveries.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.75 }} aria-label="Deliveries">
          {alarm.deliveries.map((delivery) => (
            <Chip
              key={`${delivery.channel}-${delivery.event}`}
              size="small"
              variant="outlined"
              color={DELIVERY_COLORS[delivery.state]}
              label={deliveryLabel(delivery)}
            />
          ))}
        </Box>
      )}
      {alarm.deliveries
        .filter((delivery) => delivery.state !== 'delivered' && delivery.last_error)
        .map((delivery) => (
          <Typography
            key={`${delivery.channel}-${delivery.event}-error`}
            variant="caption"
            color="textSecondary"
            sx={{ display: 'block', mt: 0.5 }}
          >
            {`${deliveryLabel(delivery).split(':')[0]} last attempt: ${delivery.last_error}`}
          </Typography>
        ))}
    </ListItem>
  );
}
