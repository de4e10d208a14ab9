import Card from '@mui/material/Card';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import { useState } from 'react';
import { useAcknowledgeAlarm, useAlarms, type AlarmsStatus } from '../../api/alarms';
import { apiErrorMessage } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { useNotify } from '../../notifications/context';
import { AlarmsByFriday } from './AlarmsByFriday';
import { SilencesSection } from './SilencesSection';
import { alarmTitle } from './alarm-labels';

/** /alarms: what is wrong with the Fridays being recorded, by Friday, newest first; open ones may be acknowledged; silences below. */
export default function AlarmsPage() {
  const [status, setStatus] = useState<AlarmsStatus>('open');
  const alarms = useAlarms(status);
  const acknowledge = useAcknowledgeAlarm();
  const notify = useNotify();
  const list = alarms.data ?? [];

  const onAcknowledge = (id: string) =>
    acknowledge.mutate(id, {
      onSuccess: (alarm) => notify.success(`Alarm acknowledged: ${alarmTitle(alarm)}`),
      onError: (error) => notify.error(apiErrorMessage(error, 'The alarm could not be acknowledged')),
    });

  return (
    <>
      <PageHeader
        title="Alarms"
        subtitle="Raised when a Friday is not being recorded in full; resolved when the cause clears"
        actions={
          <ToggleButtonGroup
            size="small"
            exclusive
            value={status}
            onChange={(_, value: AlarmsStatus | null) => value && setStatus(value)}
            aria-label="Which alarms"
          >
            <ToggleButton value="open">Open</ToggleButton>
            <ToggleButton value="all">All</ToggleButton>
          </ToggleButtonGroup>
        }
      />
      <ErrorBanner message={alarms.error ? apiErrorMessage(alarms.error, 'The alarms could not be loaded') : null} />
      <Card variant="outlined">
        {list.length === 0 ? (
          <EmptyState
            icon={<NotificationsOffIcon />}
            title={alarms.isPending ? 'Loading alarms...' : status === 'open' ? 'No open alarms' : 'No alarms yet'}
            description={alarms.isPending ? undefined : 'Every Friday so far is being recorded as it should.'}
          />
        ) : (
          <AlarmsByFriday
            alarms={list}
            acknowledging={acknowledge.isPending ? (acknowledge.variables ?? null) : null}
            onAcknowledge={onAcknowledge}
          />
        )}
      </Card>
      <SilencesSection />
    </>
  );
}
