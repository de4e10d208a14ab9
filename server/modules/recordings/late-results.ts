import type { FastifyBaseLogger } from 'fastify';
import type { CaptureProvider } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { RecordingAwaitingResult } from './repository';
import type { RecordingsService } from './service';

/*
 * A recording judged without its recorder's result is judged provisionally (an EC2 machine ended
 * before its metadata.json was in the store: uploads retried at window end, a store that could not be
 * read). Each reconcile pass reads the store again for those recordings, until 30 min after their
 * window: a result that arrives replaces the judgement, so a `partial` the machine's end suggested
 * becomes the `captured` its recorder measured, its alarm resolved and its Friday revised with it.
 */
export class LateResults {
  private running: Promise<void> | undefined;

  constructor(
    private readonly driver: Pick<CaptureProvider, 'lateResult'>,
    private readonly recordings: RecordingsService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    /** A recording changed (the live feed announces it). */
    private readonly onChanged: () => void,
  ) {}

  /** Starts a pass over the provisional recordings, unless one is running. */
  kick(): void {
    if (!this.driver.lateResult) return;
    this.running ??= this.readAll().finally(() => (this.running = undefined));
  }

  /** Resolves when no pass is running. */
  async idle(): Promise<void> {
    await this.running;
  }

  private async readAll(): Promise<void> {
    let rows: RecordingAwaitingResult[];
    try {
      rows = await this.recordings.awaitingLateResult();
    } catch (error) {
      this.log.warn({ err: error }, 'listing the recordings awaiting their result failed');
      return;
    }
    for (const row of rows) {
      try {
        if (await this.readOne(row)) this.onChanged();
      } catch (error) {
        // The store or EC2 did not answer: asked again on the next pass, until the wait is over.
        this.log.warn({ err: error, recordingId: row.id }, 'reading a late recorder result failed');
      }
    }
  }

  private async readOne(row: RecordingAwaitingResult): Promise<boolean> {
    const waitedUntil = Date.parse(row.provisional_until ?? '');
    const result = row.provider_instance_id
      ? await this.driver.lateResult?.(row.provider_instance_id, row.instance_id)
      : undefined;
    if (result) {
      const window =
        row.window_start && row.window_end
          ? { start: Date.parse(row.window_start), end: Date.parse(row.window_end) }
          : null;
      const applied = await this.recordings.applyLateResult(row.instance_id, result, row.job_id, window);
      if (applied)
        this.log.info(
          { recordingId: row.id, was: row.status, now: result.status },
          'a recorder result arrived after its recording was judged',
        );
      return applied;
    }
    if (this.clock.now().getTime() < waitedUntil) return false;
    await this.recordings.confirmProvisional(row.id);
    this.log.info(
      { recordingId: row.id, status: row.status },
      'no recorder result arrived: the provisional outcome stands',
    );
    return false;
  }
}
