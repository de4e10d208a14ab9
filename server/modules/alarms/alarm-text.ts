import type { Alarm, AlarmKind } from '../../../contract/alarms';

export type DeliveryEvent = 'raised' | 'repeated' | 'resolved';

/** One message to the channels: the alarms that changed together (one Friday wave), and how. */
export interface Notification {
  id: string;
  event: DeliveryEvent;
  alarms: Alarm[];
}

const BADGE: Record<Alarm['severity'], string> = { critical: '🔴 CRITICAL', warning: '🟠 WARNING', info: 'ℹ️ INFO' };
/** The gravest first: a wave is badged by its gravest alarm. */
const SEVERITIES: Alarm['severity'][] = ['critical', 'warning', 'info'];

/** What a wave of alarms of one kind means, counted. */
const WAVE_HEADLINES: Record<AlarmKind, (n: number) => string> = {
  launch_failed: (n) => `${n} mosques failed to start`,
  missed: (n) => `${n} Friday recordings were never launched`,
  stall: (n) => `${n} recordings have no media`,
  recorder_died: (n) => `${n} recorders died inside their window`,
  recorder_overloaded: (n) => `${n} recorders could not keep up on their machines`,
  capture_failed: (n) => `${n} mosques recorded nothing`,
  capture_partial: (n) => `${n} recordings are incomplete`,
  unschedulable: (n) => `${n} mosques cannot be scheduled`,
  preflight: (n) => `${n} pre-flight checks failed`,
  server_gone: (n) => `${n} servers are gone with recordings nobody follows`,
  instance_reaped: (n) => `${n} machines outlived their window and were terminated`,
  launch_breaker: (n) => `${n} times launches were held after a run of launch failures`,
  fleet_capacity: (n) => `${n} times the fleet had no room for its recordings`,
  audio_silent: (n) => `${n} live recordings are silent`,
  audio_missing: (n) => `${n} live recordings have no sound track`,
  picture_frozen: (n) => `${n} live recordings show a frozen picture`,
  picture_black: (n) => `${n} live recordings show a black picture`,
};

/** The UTC day an alarm was raised on, as people read it: `Friday 2026-11-27`. */
function dayOf(instant: string): string {
  const date = new Date(instant);
  return `${date.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' })} ${instant.slice(0, 10)}`;
}

const badgeOf = (alarms: readonly Alarm[], event: DeliveryEvent) => {
  if (event === 'resolved') return '✅ RESOLVED';
  const badge = BADGE[SEVERITIES.find((severity) => alarms.some((alarm) => alarm.severity === severity)) ?? 'warning'];
  return event === 'repeated' ? `🔁 STILL OPEN ${badge}` : badge;
};

const subjectOf = (alarm: Alarm) => alarm.mosque_name ?? alarm.instance_id ?? 'Capture';

/**
 * The one line Slack, Teams and an e-mail subject show, e.g.
 * `🔴 CRITICAL Al Noor Mosque: No media — the stream never came (Friday 2026-11-27)`.
 */
export function alarmText(alarm: Alarm, event: DeliveryEvent): string {
  return `${badgeOf([alarm], event)} ${subjectOf(alarm)}: ${alarm.message} (${dayOf(alarm.raised_at)})`.replace(
    /\s+/g,
    ' ',
  );
}

/** `between 11:20 and 11:40 UTC`, or `at 11:20 UTC` when they share a minute. */
function spanOf(instants: string[]): string {
  const sorted = [...instants].sort();
  const [first, last] = [sorted[0].slice(11, 16), (sorted.at(-1) ?? sorted[0]).slice(11, 16)];
  return first === last ? `at ${first} UTC` : `between ${first} and ${last} UTC`;
}

/**
 * The headline of a notification. One alarm: its own line. A wave: what happened, counted, and when, e.g.
 * `🔴 CRITICAL 12 mosques failed to start between 11:20 and 11:40 UTC (Friday 2026-11-27)`.
 */
export function notificationHeadline({ alarms, event }: Pick<Notification, 'alarms' | 'event'>): string {
  if (alarms.length === 1) return alarmText(alarms[0], event);
  const kinds = new Set(alarms.map((alarm) => alarm.kind));
  if (event === 'resolved') {
    return `${badgeOf(alarms, event)} ${alarms.length} alarms cleared ${spanOf(alarms.map((alarm) => alarm.resolved_at ?? alarm.raised_at))} (${dayOf(alarms[0].raised_at)})`;
  }
  const what = kinds.size === 1 ? WAVE_HEADLINES[alarms[0].kind](alarms.length) : `${alarms.length} alarms`;
  return `${badgeOf(alarms, event)} ${what} ${spanOf(alarms.map((alarm) => alarm.raised_at))} (${dayOf(alarms[0].raised_at)})`;
}

/** The list under a wave's headline: one line per alarm (none for a single alarm: the headline says it all). */
export function notificationLines({ alarms }: Pick<Notification, 'alarms'>): string[] {
  if (alarms.length === 1) return [];
  return alarms.map((alarm) => `• ${subjectOf(alarm)}: ${alarm.message}`.replace(/\s+/g, ' '));
}

/** Headline and list: what Slack and Teams show. */
export function notificationText(notification: Pick<Notification, 'alarms' | 'event'>): string {
  return [notificationHeadline(notification), ...notificationLines(notification)].join('\n');
}
