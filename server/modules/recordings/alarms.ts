import type { ProviderRecording } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { AlarmsService } from '../alarms/service';
import type { RecordingRow } from './repository';

/** A hole in the media longer than this is a stall worth an alarm. */
export const STALL_ALARM_SECONDS = 60;
/** A gap that ends this close to now is still open (the recorder saves its coverage as it goes). */
const OPEN_GAP_SLACK_MS = 90_000;

/**
 * What the recordings reconcile tells the operator: a recorder that died inside its window, a gap in
 * the media longer than 60 s (resolved once media flows again), and a capture that ended partial or
 * failed (not one an operator terminated). Keys name each cause once, so a reading seen again raises
 * nothing new.
 */
export class RecordingAlarms {
  constructor(
    private readonly alarms: Pick<AlarmsService, 'raise' | 'resolve'>,
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

    const gaps = reading.gaps ?? [];
    const now = this.clock.now().getTime();
    for (const [index, gap] of gaps.entries()) {
      const seconds = Math.round((Date.parse(gap.end) - Date.parse(gap.start)) / 1000);
      if (seconds <= STALL_ALARM_SECONDS) continue;
      const key = `gap:${row.id}:${gap.start}`;
      const { who, base } = await about();
      await this.alarms.raise({ ...base, kind: 'stall', key, message: `${who}: no media for ${seconds} s from ${gap.start} (${gap.reason})` });
      const open = !ended && index === gaps.length - 1 && Date.parse(gap.end) > now - OPEN_GAP_SLACK_MS;
      if (!open) await this.alarms.resolve(key);
    }

    if (!ended) return;
    if (reading.status === 'captured' || reading.stoppedByOperator) {
      await this.alarms.resolve(`recorder_died:${row.instance_id}`);
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
