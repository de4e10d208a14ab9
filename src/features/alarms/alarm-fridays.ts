import { ALARM_KINDS, type AlarmKind, type ListedAlarm } from '../../../contract/alarms';
import { fridayOfJobId, isOneOffCapture } from '../../../contract/scheduler';
import { fridayOf } from '../../lib/friday-status';

/** The alarms of one Friday (or of one day's one-off captures), newest first, with how many of each kind. */
export interface FridayAlarms {
  /** YYYY-MM-DD: the Friday (UTC) of the Saturday-to-Friday week the alarms were raised in; a one-off's own day. */
  friday: string;
  /** Alarms of one-off captures (launched by hand or at a chosen time): filed under their own day, never a Friday's. */
  oneOff: boolean;
  alarms: ListedAlarm[];
  /** Kinds present, most frequent first (ties in the order of ALARM_KINDS). */
  counts: { kind: AlarmKind; count: number }[];
}

const KIND_ORDER = Object.keys(ALARM_KINDS) as AlarmKind[];

/**
 * Where an alarm is filed: a Friday job's under its Friday (a late settlement on Saturday too); a one-off
 * capture's (launched by hand, or at a chosen time) under its own day; any other under the Friday of
 * the Saturday-to-Friday week it was raised in.
 */
function placeOf(alarm: ListedAlarm): { friday: string; oneOff: boolean } {
  const day = alarm.raised_at.slice(0, 10);
  if (isOneOffCapture(alarm)) return { friday: day, oneOff: true };
  const friday = (alarm.job_id !== null ? fridayOfJobId(alarm.job_id) : null) ?? fridayOf(day) ?? day;
  return { friday, oneOff: false };
}

/**
 * Alarms by the Friday they belong to, newest Friday first: a Friday's story (a late start, a stall, a
 * partial outcome) reads together, and a pre-flight failure on Thursday joins the Friday it warned about.
 */
export function groupByFriday(alarms: readonly ListedAlarm[]): FridayAlarms[] {
  const groups = new Map<string, { friday: string; oneOff: boolean; members: ListedAlarm[] }>();
  for (const alarm of alarms) {
    const { friday, oneOff } = placeOf(alarm);
    const key = `${friday}${oneOff ? ' one-off' : ''}`;
    const group = groups.get(key);
    if (group) group.members.push(alarm);
    else groups.set(key, { friday, oneOff, members: [alarm] });
  }
  return [...groups.values()]
    .sort((a, b) => b.friday.localeCompare(a.friday) || Number(a.oneOff) - Number(b.oneOff))
    .map(({ friday, oneOff, members }) => ({
      friday,
      oneOff,
      alarms: members.sort((a, b) => b.raised_at.localeCompare(a.raised_at)),
      counts: KIND_ORDER.map((kind) => ({ kind, count: members.filter((alarm) => alarm.kind === kind).length }))
        .filter(({ count }) => count > 0)
        .sort((a, b) => b.count - a.count),
    }));
}

/** "Friday 27 November 2026"; a one-off's day, "Sunday 29 November 2026 · one-off captures". */
export function fridayHeading(friday: string, oneOff = false): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
    .format(new Date(`${friday}T12:00:00Z`))
    .replace(',', '')
    .concat(oneOff ? ' · one-off captures' : '');
}
