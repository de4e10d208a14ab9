import type { GapCause, RecordingGap } from '../../../contract/instances';
import type { ProviderRecording } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { AlarmsService } from '../alarms';
import type { RecordingRow } from './repository';

/** A hole in the media longer than this is a stall worth an alarm. */
export const STALL_ALARM_SECONDS = 60;
/** A gap that ends this close to now is still open (the recorder saves its coverage as it goes). */
const OPEN_GAP_SLACK_MS = 90_000;

/** What each gap cause means, in the words of an alarm. */
const GAP_CAUSE_PHRASES: Record<GapCause, string> = {
  not_live_yet: 'the stream is not on the air yet',
  stream_dropped: 'the stream dropped',
  stream_stalled: 'the stream stalled',
  stream_refused: 'the stream led to an address recorders may not reach',
  sequence_reset: 'the stream restarted its numbering',
  recorder_down: 'the recorder is down',
  server_down: 'the server was down',
  store_unreachable: 'the recordings store cannot be reached',
};

/**
 * What the recordings reconcile tells the operator: a recorder that died inside its window, media
 * missing for longer than 60 s (resolved once media flows again), and a capture that ended partial or
 * failed (not one an operator terminated). One alarm per cause per recording, however many readings
 * repeat it: keys name the recording, not the reading.
 */
export class RecordingAlarms {
  constructor(
    private readonly alarms: Pick<AlarmsService, 'raise' | 'raiseOnce' | 'resolve'>,
    private readonly clock: Clock,
    private readonly mosqueName: (mosqueId: string) => Promise<string | null> = async () => null,
  ) {}

  /**
   * The server could not join the pieces every run delivered into the recording's file (store-join.ts):
   * the file holds the last run's media only until a later attempt succeeds.
   */
  async storeJoinFailed(row: RecordingRow, reason: string): Promise<void> {
    const { who, base } = await this.subjectOf(row, null);
    await this.alarms.raise({
      ...base,
      kind: 'capture_partial',
      key: `store_join:${row.id}`,
      message: `${who}: the recording's file holds only the last recorder's media; joining the pieces of all its runs failed: ${reason}. Trying again.`,
    });
  }

  /** The join succeeded; a recording the earlier runs' pieces made whole is no longer partial. */
  async storeJoined(row: RecordingRow, status: RecordingRow['status']): Promise<void> {
    await this.alarms.resolve(`store_join:${row.id}`);
    if (status === 'captured') await this.alarms.resolve(`outcome:${row.id}`);
  }

  async check(row: RecordingRow, reading: ProviderRecording, jobId: string | null): Promise<void> {
    // Most readings (progress of a healthy recording) raise nothing: the mosque's name is read only for a message.
    let subject: Promise<{ who: string; base: AlarmSubject }> | undefined;
    const about = () => (subject ??= this.subjectOf(row, jobId));
    const ended = reading.status !== 'recording';

    if ((reading.relaunches ?? 0) > 0) {
      const { who, base } = await about();
      await this.alarms.raise({
        ...base,
        kind: 'recorder_died',
        key: `recorder_died:${row.instance_id}`,
        message: `${who}: the recorder died inside its window and was started again (${reading.relaunches} time(s))`,
      });
    }

    await this.checkStall(row, reading, about);

    if (!ended) return;
    if (reading.status === 'captured' || reading.stoppedByOperator) {
      // A result that arrived late may turn an outcome alarmed as partial into captured.
      await this.alarms.resolve(`recorder_died:${row.instance_id}`, `outcome:${row.id}`);
      return;
    }
    const covered = reading.coveredSeconds ?? 0;
    const expected = reading.expectedSeconds ?? 0;
    const { who, base } = await about();
    await this.alarms.raise({
      ...base,
      kind: reading.status === 'failed' ? 'capture_failed' : 'capture_partial',
      key: `outcome:${row.id}`,
      message:
        reading.status === 'failed'
          ? `${who}: nothing was recorded. ${reading.reason ?? ''}`.trim()
          : `${who}: only ${covered} s of ${expected} s recorded. ${reading.reason ?? ''}`.trim(),
    });
  }

  /**
   * One stall alarm per recording, raised while its newest gap is still growing past 60 s and resolved
   * when media flows again (or the recording ended). Gaps that closed are the Friday's story, told by
   * its outcome: they never raise, and neither does a second stall after the first one's alarm
   * resolved (raiseOnce). A stream that is not on the air yet is not stalled.
   */
  private async checkStall(
    row: RecordingRow,
    reading: ProviderRecording,
    about: () => Promise<{ who: string; base: AlarmSubject }>,
  ): Promise<void> {
    const key = `stall:${row.id}`;
    const gaps = reading.gaps ?? [];
    const newest = gaps.at(-1);
    const growing =
      reading.status === 'recording' &&
      !reading.stoppedByOperator &&
      newest !== undefined &&
      Date.parse(newest.end) > this.clock.now().getTime() - OPEN_GAP_SLACK_MS;
    if (growing && isStall(newest)) {
      const { who, base } = await about();
      const since = `${newest.start.slice(11, 19)} UTC`;
      await this.alarms.raiseOnce({
        ...base,
        kind: 'stall',
        key,
        message: `${who}: no media since ${since}: ${GAP_CAUSE_PHRASES[newest.cause]} (${newest.reason})`,
      });
      return;
    }
    // Most readings have no stall behind them: only a recording that had one has an alarm to resolve.
    if (gaps.some(isStall)) await this.alarms.resolve(key);
  }

  /** Who an alarm about this recording names, and what it links to. */
  private async subjectOf(row: RecordingRow, jobId: string | null): Promise<{ who: string; base: AlarmSubject }> {
    const name = row.mosque_id ? await this.mosqueName(row.mosque_id).catch(() => null) : null;
    const who = name ?? (row.mosque_id ? `Mosque ${row.mosque_id}` : `Recording ${row.id}`);
    return { who, base: { mosqueId: row.mosque_id, mosqueName: name, jobId, instanceId: row.instance_id } };
  }
}

const isStall = (gap: RecordingGap) =>
  gap.cause !== 'not_live_yet' && (Date.parse(gap.end) - Date.parse(gap.start)) / 1000 > STALL_ALARM_SECONDS;

interface AlarmSubject {
  mosqueId: string | null;
  mosqueName: string | null;
  jobId: string | null;
  instanceId: string;
}
