import type { Alarm, AlarmDelivery, AlarmKind } from '../../../contract/alarms';

/** What each kind of alarm means, in a few words (docs/operations/alarms.md). */
export const ALARM_KIND_LABELS: Record<AlarmKind, string> = {
  launch_failed: 'Launch failed',
  missed: 'Friday missed',
  stall: 'No media',
  recorder_died: 'Recorder died',
  recorder_overloaded: 'Recorder overloaded',
  capture_failed: 'Capture failed',
  capture_partial: 'Capture partial',
  unschedulable: 'Cannot be scheduled',
  preflight: 'Pre-flight check failed',
  server_gone: 'Server gone',
  instance_reaped: 'Instance reaped',
  launch_breaker: 'Launches held',
  fleet_capacity: 'Fleet at capacity',
  audio_silent: 'Audio silent',
  audio_missing: 'No audio track',
  picture_frozen: 'Picture frozen',
  picture_black: 'Picture black',
};

/** Who the alarm is about: the mosque, else the instance, else the kind. */
export function alarmTitle(alarm: Alarm): string {
  return alarm.mosque_name ?? alarm.instance_id ?? ALARM_KIND_LABELS[alarm.kind];
}

export function alarmState(alarm: Alarm): 'Resolved' | 'Acknowledged' | 'Open' {
  if (alarm.resolved_at) return 'Resolved';
  return alarm.acknowledged_at ? 'Acknowledged' : 'Open';
}

const CHANNEL_LABELS: Record<AlarmDelivery['channel'], string> = { webhook: 'Webhook', email: 'E-mail' };

/** One delivery as a short phrase: "Webhook: delivered", "E-mail: retrying (2 attempts)". */
export function deliveryLabel(delivery: AlarmDelivery): string {
  const event = { raised: '', repeated: ' (reminder)', resolved: ' (resolution)' }[delivery.event];
  const tries =
    delivery.state === 'delivered' || delivery.attempts === 0
      ? ''
      : `, ${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}`;
  return `${CHANNEL_LABELS[delivery.channel]}${event}: ${delivery.state}${tries}`;
}
