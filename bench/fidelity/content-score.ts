import { CONTENT_CONDITIONS, contentAlarmSecondsOf, type ContentCondition } from '../../recorder/protocol';

/** A content fault as it was on the air (epoch ms); `to` null: for the whole recording (no sound track). */
export interface ContentFaultSpan {
  alarm: ContentCondition;
  from: number;
  to: number | null;
}

/** A content alarm of one recording as GET /api/alarms lists it (epoch ms). */
export interface ContentAlarm {
  kind: ContentCondition;
  raisedAt: number;
  resolvedAt: number | null;
}

export const isContentCondition = (kind: string): kind is ContentCondition =>
  (CONTENT_CONDITIONS as readonly string[]).includes(kind);

/**
 * How late past its alarm threshold a content alarm may be raised, and past the fault's end (or the
 * window's, for a missing sound track) resolved: the 30 s the content assurance issue allows on top of
 * the default 120 s threshold, for the few seconds of reading behind the live edge, measuring a second
 * at a time and the server's reading of the recorder's state.
 */
export const CONTENT_SLACK_MS = 30_000;

export interface ContentScore {
  /** 1 when the recording's content fault raised no alarm of its kind. */
  missed: number;
  /** The fault's alarm raised or resolved later than the slack allows (or never resolved). */
  late: ContentAlarm[];
  /** Content alarms of another kind than the fault's (any, on a recording without one), and its kind's second and later. */
  falseAlarms: ContentAlarm[];
  /** Seconds from the fault's start to its alarm, and from its end (or the window's) to the alarm's resolution. */
  raisedAfterSeconds: number | null;
  resolvedAfterSeconds: number | null;
}

/**
 * Scores the content alarms of one recording against its content fault (if any), for the season's
 * CONTENT_ALARM_SECONDS: the fault must raise exactly its alarm, resolved when the content is back
 * (or the window ends); a recording without one must raise none.
 */
export function scoreContentAlarms(
  alarms: ContentAlarm[],
  fault: ContentFaultSpan | undefined,
  windowEnd: number,
  thresholdSeconds: number,
): ContentScore {
  const byRaise = [...alarms].sort((a, b) => a.raisedAt - b.raisedAt);
  const own = fault ? byRaise.find((alarm) => alarm.kind === fault.alarm) : undefined;
  const falseAlarms = byRaise.filter((alarm) => alarm !== own);
  if (!fault || !own)
    return { missed: fault ? 1 : 0, late: [], falseAlarms, raisedAfterSeconds: null, resolvedAfterSeconds: null };
  const raisedAfter = own.raisedAt - fault.from;
  const contentBack = fault.to ?? windowEnd;
  const resolvedAfter = own.resolvedAt === null ? null : own.resolvedAt - contentBack;
  const late =
    raisedAfter > contentAlarmSecondsOf(fault.alarm, thresholdSeconds) * 1000 + CONTENT_SLACK_MS ||
    resolvedAfter === null ||
    resolvedAfter > CONTENT_SLACK_MS;
  return {
    missed: 0,
    late: late ? [own] : [],
    falseAlarms,
    raisedAfterSeconds: raisedAfter / 1000,
    resolvedAfterSeconds: resolvedAfter === null ? null : resolvedAfter / 1000,
  };
}
