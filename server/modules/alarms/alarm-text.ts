import type { Alarm } from '../../../contract/alarms';

export type DeliveryEvent = 'raised' | 'resolved';

const BADGE: Record<Alarm['severity'], string> = { critical: '🔴 CRITICAL', warning: '🟠 WARNING' };

/** The UTC day an alarm was raised on, as people read it: `Friday 2026-11-27`. */
function dayOf(instant: string): string {
  const date = new Date(instant);
  return `${date.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' })} ${instant.slice(0, 10)}`;
}

/**
 * The one line Slack, Teams and an e-mail subject show, e.g.
 * `🔴 CRITICAL Al Noor Mosque: No media — the stream never came (Friday 2026-11-27)`.
 */
export function alarmText(alarm: Alarm, event: DeliveryEvent): string {
  const subject = alarm.mosque_name ?? alarm.instance_id ?? 'Capture';
  const badge = event === 'resolved' ? '✅ RESOLVED' : BADGE[alarm.severity];
  return `${badge} ${subject}: ${alarm.message} (${dayOf(alarm.raised_at)})`.replace(/\s+/g, ' ');
}
