import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListSubheader from '@mui/material/ListSubheader';
import Typography from '@mui/material/Typography';
import type { ListedAlarm } from '../../../contract/alarms';
import { countOf } from '../../../contract/plural';
import { AlarmItem } from './AlarmItem';
import { ALARM_KIND_LABELS } from './alarm-labels';
import { fridayHeading, groupByFriday } from './alarm-fridays';

interface AlarmsByFridayProps {
  alarms: readonly ListedAlarm[];
  /** The alarm being acknowledged, if any. */
  acknowledging: string | null;
  onAcknowledge: (id: string) => void;
}

/** The alarm list in Fridays, newest first: a header per Friday with its count of each kind, then its alarms. */
export function AlarmsByFriday({ alarms, acknowledging, onAcknowledge }: AlarmsByFridayProps) {
  return (
    <List aria-label="Alarms" disablePadding>
      {groupByFriday(alarms).map(({ friday, oneOff, alarms: members, counts }) => {
        const heading = fridayHeading(friday, oneOff);
        const total = countOf(members.length, 'alarm');
        const byKind = counts.map(({ kind, count }) => `${ALARM_KIND_LABELS[kind]}: ${count}`);
        return (
          <Box component="li" key={heading}>
            <Box component="ul" aria-label={`${heading}: ${total} (${byKind.join(', ')})`} sx={{ p: 0 }}>
              <ListSubheader
                disableSticky
                sx={{
                  display: 'flex',
                  flexWrap: 'wrap',
                  alignItems: 'center',
                  columnGap: 1.5,
                  rowGap: 0.5,
                  py: 1,
                  lineHeight: 1.5,
                  borderBottom: 1,
                  borderColor: 'divider',
                  bgcolor: 'action.hover',
                }}
              >
                <Typography component="span" sx={{ fontWeight: 600, color: 'text.primary' }}>
                  {heading}
                </Typography>
                <Typography component="span" variant="body2" color="textSecondary">
                  {total}
                </Typography>
                {byKind.map((label) => (
                  <Chip key={label} size="small" variant="outlined" label={label} />
                ))}
              </ListSubheader>
              {members.map((alarm) => (
                <AlarmItem
                  key={alarm.id}
                  alarm={alarm}
                  acknowledging={acknowledging === alarm.id}
                  onAcknowledge={() => onAcknowledge(alarm.id)}
                />
              ))}
            </Box>
          </Box>
        );
      })}
    </List>
  );
}
