import {
  CONTENT_CONDITIONS,
  contentAlarmSecondsOf,
  type ContentCondition,
  type OngoingCondition,
} from '../../../recorder/protocol';
import type { ProviderRecording } from '../../capture/provider';
import type { AlarmCause, AlarmsService } from '../alarms';

/** Who an alarm about a recording names, and what it links to (the recordings module knows). */
export interface ContentSubject {
  who: string;
  base: Pick<AlarmCause, 'mosqueId' | 'mosqueName' | 'jobId' | 'instanceId'>;
}

const duration = (seconds: number) =>
  seconds < 120 ? `${Math.round(seconds)} s` : `${Math.floor(seconds / 60)} minutes`;

/** The alarm's sentence: "Al Noor Mosque: audio silent for 2 minutes (since 11:42:10 UTC)". */
function messageOf(who: string, condition: OngoingCondition): string {
  const since = `since ${condition.since.slice(11, 19)} UTC`;
  switch (condition.kind) {
    case 'audio_silent':
      return `${who}: audio silent for ${duration(condition.seconds)} (${since})`;
    case 'audio_missing':
      return `${who}: the stream has a picture and no sound track (${since})`;
    case 'picture_frozen':
      return `${who}: picture frozen for ${duration(condition.seconds)} (${since})`;
    case 'picture_black':
      return `${who}: picture black for ${duration(condition.seconds)} (${since})`;
  }
}

/**
 * Content alarms of a recording while its window is open (docs/operations/content-assurance.md): one
 * alarm per condition the recorder reports as going on for the threshold (CONTENT_ALARM_SECONDS),
 * resolved as soon as the recorder no longer reports it, and when the recording ends. A condition that
 * comes back after its alarm resolved raises a new one: a microphone muted twice in a sermon is two
 * phone calls.
 */
export class ContentAlarms {
  /** Causes this server raised and has not seen resolved: their readings resolve them. */
  private readonly raised = new Set<string>();
  /** Causes whose alarm, raised before this server started, was resolved once here: not looked up again. */
  private readonly settled = new Set<string>();

  constructor(
    private readonly alarms: Pick<AlarmsService, 'raise' | 'resolve'>,
    private readonly thresholdSeconds: number,
  ) {}

  thresholdOf(kind: ContentCondition): number {
    return contentAlarmSecondsOf(kind, this.thresholdSeconds);
  }

  async check(recordingId: string, reading: ProviderRecording, about: () => Promise<ContentSubject>): Promise<void> {
    const content = reading.content;
    const live = reading.status === 'recording' && !reading.stoppedByOperator;
    for (const kind of CONTENT_CONDITIONS) {
      const key = `content:${kind}:${recordingId}`;
      const ongoing = live
        ? content?.conditions.find(
            (condition) => condition.kind === kind && condition.seconds >= this.thresholdOf(kind),
          )
        : undefined;
      if (ongoing) {
        if (this.raised.has(key)) continue;
        const { who, base } = await about();
        await this.alarms.raise({ ...base, kind, key, message: messageOf(who, ongoing) });
        this.raised.add(key);
        this.settled.delete(key);
      } else if (this.raised.has(key) || (!this.settled.has(key) && this.mayHaveRaised(kind, reading))) {
        // Raised here, or possibly by a server before a restart: its totals say the condition lasted long enough once.
        await this.alarms.resolve(key);
        this.raised.delete(key);
        this.settled.add(key);
      }
    }
  }

  private mayHaveRaised(kind: ContentCondition, reading: ProviderRecording): boolean {
    const content = reading.content;
    if (!content) return false;
    const threshold = this.thresholdOf(kind);
    if (kind === 'audio_silent') return content.longestSilenceSeconds >= threshold;
    if (kind === 'picture_frozen') return content.frozenSeconds >= threshold;
    if (kind === 'picture_black') return content.blackSeconds >= threshold;
    return content.integratedLufs === null && content.measuredSeconds >= threshold;
  }
}

/** Silent for more than this share of its window: a captured recording is not a clean one. */
const MOSTLY_SILENT = 0.5;

/**
 * The warning a recording that ended captured carries when its content is not a sermon one can hear:
 * silent for most of its window, or with no sound at all. Null when there is nothing to warn of.
 */
export function contentWarning(reading: ProviderRecording): string | null {
  const content = reading.content;
  const expected = reading.expectedSeconds ?? 0;
  if (reading.status !== 'captured' || !content || content.measuredSeconds === 0) return null;
  if (content.integratedLufs === null) return 'Content warning: no sound was recorded';
  if (expected > 0 && content.silentSeconds > MOSTLY_SILENT * expected)
    return `Content warning: silent for ${Math.round(content.silentSeconds / 60)} of ${Math.round(expected / 60)} minutes`;
  return null;
}

/** The reading with its content warning in its reason (kept as `captured`: the media is all there). */
export function withContentWarning(reading: ProviderRecording): ProviderRecording {
  const warning = contentWarning(reading);
  if (!warning || reading.reason?.includes(warning)) return reading;
  return { ...reading, reason: reading.reason ? `${reading.reason}. ${warning}` : warning };
}
