import { ALARM_KINDS, type AlarmKind, type ListedAlarm } from '../../../contract/alarms';
import { fridayOf } from '../../lib/friday-status';

/** The alarms of one Friday, newest first, with how many of each kind. */
export interface FridayAlarms {
  /** YYYY-MM-DD: the Friday (UTC) of the Saturday-to-Friday week the alarms were raised in. */
  friday: string;
  alarms: ListedAlarm[];
  /** Kinds present, most frequent first (ties in the order of ALARM_KINDS). */
  counts: { kind: AlarmKind; count: number }[];
}

const KIND_ORDER = Object.keys(ALARM_KINDS) as AlarmKind[];

/**
 * Alarms by the Friday they belong to, newest Friday first: a Friday's story (a late start, a stall, a
 * partial outcome) reads together, and a pre-flight failure on Thursday joins the Friday it warned about.
 */
export function groupByFriday(alarms: readonly ListedAlarm[]): FridayAlarms[] {
  const groups = new Map<string, ListedAlarm[]>();
  for (const alarm of alarms) {
    const friday = fridayOf(alarm.raised_at.slice(0, 10)) ?? alarm.raised_at.slice(0, 10);
    const members = groups.get(friday);
    if (members) members.push(alarm);
    else groups.set(friday, [alarm]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([friday, members]) => ({
      friday,
      alarms: members.sort((a, b) => b.raised_at.localeCompare(a.raised_at)),
      counts: KIND_ORDER.map((kind) => ({ kind, count: members.filter((alarm) => alarm.kind === kind).length }))
        .filter(({ count }) => count > 0)
        .sort((a, b) => b.count - a.count),
    }));
}

/** "Friday 27 November 2026". */
export function fridayHeading(friday: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
    .format(new Date(`${friday}T12:00:00Z`))
    .replace(',', '');
}
