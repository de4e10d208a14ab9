import { countOf } from '../../../contract/plural';
import { reasonBeyondCoverage } from '../../../contract/recordings';
import type { GapCause, RecordingGap } from '../../../contract/instances';
import { isStallGap, OPEN_AT_MEASURE_MS } from '../../../recorder/protocol';
import type { ProviderRecording } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { AlarmsService } from '../alarms';
import type { ContentAlarms } from '../content';
import { parseGaps, type RecordingRow } from './repository';

/** A reading that does not say when it was measured is judged against now, with slack for a remote recorder's late reports. */
const OPEN_GAP_SLACK_MS = 90_000;

/** What each gap cause means, in the words of an alarm. */
const GAP_CAUSE_PHRASES: Record<GapCause, string> = {
  not_live_yet: 'the stream is not on the air yet',
  stream_dropped: 'the stream dropped',
  stream_stalled: 'the stream stalled',
  stream_refused: 'the stream led to an address recorders may not reach',
  sequence_reset: 'the stream restarted its numbering',
  recorder_down: 'the recorder is down',
  recorder_late: 'the recorder started after the window opened',
  recorder_overloaded: 'the recorder could not keep up with the stream on its machine',
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
  /** Recordings whose stall this server raised and has not seen resolved: their readings resolve it. */
  private readonly stalled = new Set<string>();

  constructor(
    private readonly alarms: Pick<AlarmsService, 'raise' | 'raiseOnce' | 'resolve' | 'restate'>,
    private readonly clock: Clock,
    private readonly mosqueName: (mosqueId: string) => Promise<string | null> = async () => null,
    private readonly content?: ContentAlarms,
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

  /**
   * The join succeeded and `joined` is the recording it made: its outcome alarm follows (a recording
   * the earlier runs' pieces made whole is no longer partial, one judged failed may be partial now).
   */
  async storeJoined(joined: RecordingRow): Promise<void> {
    await this.alarms.resolve(`store_join:${joined.id}`);
    if (joined.status === 'recording') return;
    await this.outcome(joined, {
      status: joined.status,
      coveredSeconds: joined.covered_seconds === null ? null : Number(joined.covered_seconds),
      expectedSeconds: joined.expected_seconds === null ? null : Number(joined.expected_seconds),
      reason: joined.reason,
    });
  }

  async check(row: RecordingRow, reading: ProviderRecording, jobId: string | null): Promise<void> {
    // Most readings (progress of a healthy recording) raise nothing: the mosque's name is read only for a message.
    let subject: Promise<{ who: string; base: AlarmSubject }> | undefined;
    const about = () => (subject ??= this.subjectOf(row, jobId));
    const ended = reading.status !== 'recording';

    if ((reading.relaunches ?? 0) > 0) {
      const { who, base } = await about();
      // Restated: its count follows the relaunches ("1 time" would stay after the tenth).
      await this.alarms.restate({
        ...base,
        kind: 'recorder_died',
        key: `recorder_died:${row.instance_id}`,
        message: `${who}: the recorder died inside its window and was started again (${countOf(reading.relaunches ?? 0, 'time')})`,
      });
    }

    await this.checkStall(row, reading, about);
    await this.content?.check(row.id, reading, about);

    if (!ended) return this.checkOverload(row, reading, about);
    // The recording's end settles the alarms of things that happened in it: its stall, a recorder's
    // death and its overload are told by its outcome from now on.
    await this.alarms.resolve(`stall:${row.id}`, `recorder_died:${row.instance_id}`, `recorder_overloaded:${row.id}`);
    this.stalled.delete(row.id);
    await this.outcome(row, reading, about);
  }

  /**
   * The alarm an ended recording's outcome deserves, from its current figures: none when captured (or
   * stopped by an operator), else capture_failed or capture_partial. A revised outcome (a late result,
   * the store's join) replaces the alarm of the earlier one, or resolves it.
   */
  private async outcome(
    row: RecordingRow,
    outcome: Pick<ProviderRecording, 'status' | 'coveredSeconds' | 'expectedSeconds' | 'reason' | 'stoppedByOperator'>,
    about: () => Promise<{ who: string; base: AlarmSubject }> = () => this.subjectOf(row, null),
  ): Promise<void> {
    const key = `outcome:${row.id}`;
    if (outcome.status === 'captured' || outcome.stoppedByOperator) return this.alarms.resolve(key);
    const covered = outcome.coveredSeconds ?? Number(row.covered_seconds ?? 0);
    const expected = outcome.expectedSeconds ?? Number(row.expected_seconds ?? 0);
    const { who, base } = await about();
    await this.alarms.restate({
      ...base,
      kind: outcome.status === 'failed' ? 'capture_failed' : 'capture_partial',
      key,
      message:
        covered === 0
          ? `${who}: nothing was recorded. ${outcome.reason ?? ''}`.trim()
          : `${who}: only ${covered} s of ${expected} s recorded. ${reasonBeyondCoverage(outcome.reason) ?? ''}`.trim(),
    });
  }

  /**
   * One stall alarm per recording, raised while its newest gap is still growing past 60 s and resolved
   * as soon as it is not: media flows again, or the hole was filled in (a playlist that lagged and
   * caught up: then the gap is gone), or the recording ended. Gaps that closed are the Friday's story,
   * told by its outcome: they never raise, and neither does a second stall after the first one's alarm
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
    if (newest && this.growing(reading, newest) && isStallGap(newest)) {
      const { who, base } = await about();
      const since = `${newest.start.slice(11, 19)} UTC`;
      const alarm = await this.alarms.raiseOnce({
        ...base,
        kind: 'stall',
        key,
        message: `${who}: nothing recorded since ${since}: ${GAP_CAUSE_PHRASES[newest.cause]} (${newest.reason})`,
      });
      if (!alarm.resolved_at) this.stalled.add(row.id);
      return;
    }
    // Most readings have no stall behind them: only a recording that had one (raised here, or on a
    // server that stored its gaps) has an alarm to resolve, even once the filled-in hole left no gap.
    if (this.stalled.has(row.id) || gaps.some(isStallGap) || parseGaps(row.gaps).some(isStallGap)) {
      await this.alarms.resolve(key);
      this.stalled.delete(row.id);
    }
  }

  /**
   * Whether `gap` (a live reading's newest) still goes on. Judged against now alone, a hole that closed
   * stayed "growing" for the slack: its alarm was sent, and resolved, up to 90 s after media flowed again.
   */
  private growing(reading: ProviderRecording, gap: RecordingGap): boolean {
    const openSince = reading.measuredUntil
      ? Date.parse(reading.measuredUntil) - OPEN_AT_MEASURE_MS
      : this.clock.now().getTime() - OPEN_GAP_SLACK_MS;
    return reading.status === 'recording' && !reading.stoppedByOperator && Date.parse(gap.end) > openSince;
  }

  /**
   * One alarm per live recording whose recorder could not keep up on its machine and lost media for it:
   * the gap's reason names the machine and ffmpeg's speed, or how far behind its output was. It is our
   * machine's fault, not the stream's: the operator lightens the machine, nobody phones the mosque. A
   * copy still behind at the live edge has lost nothing yet (it may catch up; its gap says 0 s lost):
   * the stall alarm tells of it past 60 s.
   */
  private async checkOverload(
    row: RecordingRow,
    reading: ProviderRecording,
    about: () => Promise<{ who: string; base: AlarmSubject }>,
  ): Promise<void> {
    const overloaded = reading.gaps?.find((gap) => gap.cause === 'recorder_overloaded' && gap.content_lost_seconds > 0);
    if (!overloaded) return;
    const { who, base } = await about();
    await this.alarms.raiseOnce({
      ...base,
      kind: 'recorder_overloaded',
      key: `recorder_overloaded:${row.id}`,
      message: `${who}: ${overloaded.reason}: what the stream sent meanwhile was not recorded`,
    });
  }

  /** Who an alarm about this recording names, and what it links to. */
  private async subjectOf(row: RecordingRow, jobId: string | null): Promise<{ who: string; base: AlarmSubject }> {
    const name = row.mosque_id ? await this.mosqueName(row.mosque_id).catch(() => null) : null;
    const who = name ?? (row.mosque_id ? `Mosque ${row.mosque_id}` : `Recording ${row.id}`);
    return { who, base: { mosqueId: row.mosque_id, mosqueName: name, jobId, instanceId: row.instance_id } };
  }
}

interface AlarmSubject {
  mosqueId: string | null;
  mosqueName: string | null;
  jobId: string | null;
  instanceId: string;
}
