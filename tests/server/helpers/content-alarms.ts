import type { Alarm, AlarmKind } from '../../../contract/alarms';

/*
 * What the end-to-end tests of content alarms share, whether their recorders run locally or on a
 * cloud machine: the threshold they run with, the fault the programme carries, and how an alarm tells
 * how long its condition had lasted.
 */

/** CONTENT_ALARM_SECONDS, scaled down from 120 s: a condition lasting this long is alarmed. */
export const TEST_CONTENT_ALARM_SECONDS = 8;
/** The fault runs from 12 s to 36 s of a 64 s programme: 24 s, three times the threshold. */
export const TEST_CONTENT_FAULT = { from: 12, to: 36, seconds: 64 } as const;
/**
 * How far past its start or its threshold a condition may have lasted when the recorder first tells
 * of it: at its next check (every second, recorder.ts), reading under load a few one-second segments
 * at once (up to 4 s of media).
 */
export const TOLD_WITHIN_SECONDS = 1 + 4;

/** The alarm of `kind` about `mosque`, open or resolved. */
export async function contentAlarmOf(
  alarms: { list(status: 'all', limit: number): Promise<Alarm[]> },
  mosque: string,
  kind: AlarmKind,
): Promise<Alarm | undefined> {
  return (await alarms.list('all', 500)).find((alarm) => alarm.mosque_id === mosque && alarm.kind === kind);
}

/** How long the condition had lasted when its alarm was raised, as its message says ("... for 9 s (since 12:00:01 UTC)"). */
export function lastedSeconds(alarm: Alarm): number {
  return Number(/ for (\d+) s \(since \d\d:\d\d:\d\d UTC\)$/.exec(alarm.message)?.[1]);
}
