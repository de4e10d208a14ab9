import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import type { AlarmKind, AlarmSilence } from '../../../contract/alarms';
import { useCreateSilence, useLiftSilence, useSilences } from '../../api/alarms';
import { apiErrorMessage } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDateTime } from '../../lib/dates';
import { useNotify } from '../../notifications/context';
import { MosquePicker } from '../../widgets/MosquePicker';
import { ALARM_KIND_LABELS } from './alarm-labels';

/** How long a silence may be set for, in minutes (the server takes up to a week). */
const DURATIONS: [minutes: number, label: string][] = [
  [30, '30 minutes'],
  [60, '1 hour'],
  [120, '2 hours'],
  [240, '4 hours'],
  [480, '8 hours'],
  [1440, '1 day'],
  [4320, '3 days'],
  [10080, '1 week'],
];
const ANY_KIND = '';

/** What a silence holds, in words: "Central Mosque · No media", "every mosque · Capture failed". */
function silenceSubject(silence: Pick<AlarmSilence, 'mosque_id' | 'mosque_name' | 'kind'>): string {
  const mosque = silence.mosque_id ? (silence.mosque_name ?? silence.mosque_id) : 'Every mosque';
  return `${mosque} · ${silence.kind ? ALARM_KIND_LABELS[silence.kind] : 'every kind of alarm'}`;
}

/**
 * Silences on the Alarms page: hold the webhook and e-mail notifications of a mosque or a kind of alarm
 * for a while (the alarms are still raised and listed here), see those in force, lift one early.
 */
export function SilencesSection() {
  const silences = useSilences();
  const create = useCreateSilence();
  const lift = useLiftSilence();
  const notify = useNotify();
  const [mosqueId, setMosqueId] = useState<string | null>(null);
  const [kind, setKind] = useState<AlarmKind | typeof ANY_KIND>(ANY_KIND);
  const [minutes, setMinutes] = useState(120);
  const [comment, setComment] = useState('');

  const complete = (mosqueId !== null || kind !== ANY_KIND) && comment.trim() !== '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        mosque_id: mosqueId ?? undefined,
        kind: kind === ANY_KIND ? undefined : kind,
        duration_minutes: minutes,
        comment,
      },
      {
        onSuccess: (silence) => {
          notify.success(`Notifications silenced until ${formatDateTime(silence.ends_at)}: ${silenceSubject(silence)}`);
          setComment('');
        },
        onError: (error) => notify.error(apiErrorMessage(error, 'The silence could not be set')),
      },
    );
  };

  const onLift = (silence: AlarmSilence) =>
    lift.mutate(silence.id, {
      onSuccess: () => notify.success(`Silence lifted: ${silenceSubject(silence)}`),
      onError: (error) => notify.error(apiErrorMessage(error, 'The silence could not be lifted')),
    });

  const active = silences.data ?? [];
  return (
    <Card variant="outlined" sx={{ mt: 3 }} component="section" aria-labelledby="silences-heading">
      <CardContent>
        <Typography id="silences-heading" variant="h6" component="h2">
          Silences
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
          Hold the webhook and e-mail notifications of a mosque or a kind of alarm for a while. Its alarms are still
          raised and listed here.
        </Typography>
        <Stack
          component="form"
          aria-label="New silence"
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          onSubmit={onSubmit}
          sx={{ alignItems: { md: 'flex-start' } }}
        >
          <MosquePicker
            sx={{ minWidth: 220 }}
            // Not MUI's "Open"/"Close": the page's Open/All toggle already answers to "Open".
            openText="Show mosques"
            closeText="Hide mosques"
            value={mosqueId}
            onChange={(id) => setMosqueId(id || null)}
            helperText="Empty: every mosque"
          />
          <TextField
            select
            label="Kind"
            value={kind}
            onChange={(event) => setKind(event.target.value as AlarmKind)}
            sx={{ minWidth: 200 }}
            helperText="Or one kind everywhere"
          >
            <MenuItem value={ANY_KIND}>Every kind</MenuItem>
            {(Object.keys(ALARM_KIND_LABELS) as AlarmKind[]).map((value) => (
              <MenuItem key={value} value={value}>
                {ALARM_KIND_LABELS[value]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="For"
            value={minutes}
            onChange={(event) => setMinutes(Number(event.target.value))}
            sx={{ minWidth: 140 }}
          >
            {DURATIONS.map(([value, label]) => (
              <MenuItem key={value} value={value}>
                {label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Comment"
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            required
            slotProps={{ htmlInput: { maxLength: 500 } }}
            sx={{ flex: 1 }}
            helperText="Why, for whoever reads it next"
          />
          <Button type="submit" variant="contained" disabled={!complete || create.isPending} sx={{ mt: { md: 1 } }}>
            Silence
          </Button>
        </Stack>
        <ErrorBanner
          message={silences.error ? apiErrorMessage(silences.error, 'The silences could not be loaded') : null}
        />
        {active.length === 0 ? (
          <Typography color="textSecondary" sx={{ mt: 2 }}>
            {silences.isPending ? 'Loading silences...' : 'No silences: every alarm is notified.'}
          </Typography>
        ) : (
          <List aria-label="Silences in force">
            {active.map((silence) => (
              <ListItem
                key={silence.id}
                aria-label={silenceSubject(silence)}
                divider
                secondaryAction={
                  <Button onClick={() => onLift(silence)} disabled={lift.isPending && lift.variables === silence.id}>
                    Lift
                  </Button>
                }
              >
                <ListItemText
                  primary={silenceSubject(silence)}
                  secondary={`Until ${formatDateTime(silence.ends_at)} · ${silence.comment} · set by ${silence.created_by}`}
                />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
