/*
 * The live report of a recorder whose state.json the server cannot read (an EC2 machine): its content
 * conditions, progress and coverage, shipped as live.json under its recording's key prefix (the POST
 * policy or role it delivers its pieces with allows that prefix and nothing else). Shipped when a
 * condition starts, ends or reaches its alarm threshold, and when a stall starts or ends, so an alarm
 * is raised and resolved as soon as the server's next pass reads it, and otherwise at most every
 * `everySeconds` (docs/operations/content-assurance.md gives the requests this costs). Part of the
 * recorder runtime: Node and its siblings.
 */
import {
  alarmSignature,
  INSTANCE_FILES,
  stallGoingOn,
  type LiveReport,
  type LiveReportSettings,
  type RecorderState,
} from './protocol';
import type { StoreShipper } from './recorder-delivery';
import { writeJsonAtomic } from './recorder-state';

/** A live report is worth a few tries only: the next state written ships a newer one. */
const LIVE_DELIVERY_MS = 10_000;

export class LiveReporter {
  private lastShippedMono = -Infinity;
  private lastSignature = '';
  /** The newest report not shipped yet: one upload at a time, and only the newest is worth it. */
  private next: LiveReport | null = null;
  private shipping: Promise<void> | null = null;

  constructor(
    private readonly shipper: StoreShipper,
    /** Where the report is written before it is shipped (the instance folder's live.json). */
    private readonly file: string,
    private readonly settings: LiveReportSettings,
    /** CONTENT_ALARM_SECONDS: a condition reaching its alarm threshold is reported at once. */
    private readonly alarmSeconds: number,
    private readonly launchKey: string,
    /** The recording's window (RecorderConfig's windowStart and windowEnd). */
    private readonly window: { windowStart: string; windowEnd: string },
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Each state the recorder writes while its window is open, measured until `measuredUntil`: shipped
   * when due, and at once when a content condition or a stall (a gap going on past 60 s) starts or ends.
   */
  offer(
    state: Pick<RecorderState, 'bytes' | 'mediaSeconds' | 'content'> & Partial<Pick<RecorderState, 'coverage'>>,
    measuredUntil: string,
    mono = performance.now(),
  ): void {
    const content = state.content ?? null;
    const coverage = state.coverage ?? null;
    const stalled = coverage && stallGoingOn(coverage.gaps, Date.parse(measuredUntil)) ? 'stalled' : '';
    const signature = `${alarmSignature(content, this.alarmSeconds)}|${stalled}`;
    const due = mono - this.lastShippedMono >= this.settings.everySeconds * 1000;
    if (!due && signature === this.lastSignature) return;
    this.lastSignature = signature;
    this.lastShippedMono = mono;
    this.next = {
      launchKey: this.launchKey,
      measuredUntil,
      windowStart: this.window.windowStart,
      windowEnd: this.window.windowEnd,
      bytes: state.bytes,
      mediaSeconds: state.mediaSeconds,
      coverage,
      content,
    };
    this.shipping ??= this.ship().finally(() => (this.shipping = null));
  }

  private async ship(): Promise<void> {
    for (let report = this.next; report; report = this.next) {
      this.next = null;
      try {
        writeJsonAtomic(this.file, report);
        const error = await this.shipper.deliver(
          this.file,
          INSTANCE_FILES.live,
          'application/json',
          Date.now() + LIVE_DELIVERY_MS,
        );
        // Not in the store: the next state written ships it again rather than waiting out the period.
        if (error) this.lastShippedMono = -Infinity;
      } catch (error) {
        this.log(`could not write the live report: ${(error as Error).message}`);
        this.lastShippedMono = -Infinity;
      }
    }
  }
}
