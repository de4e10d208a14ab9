import fs from 'node:fs';
import path from 'node:path';
import type { LiveContent } from '../../../contract/content';
import type { Recording, RecordingStatus } from '../../../contract/instances';
import { contentSummarySchema, liveContentResponse } from '../../capture/content-schema';
import type { ProviderRecording } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/http-error';
import { withContentWarning } from '../content';
import type { RecordingAlarms } from './alarms';
import {
  parseGaps,
  toRecording,
  type RecordingFilter,
  type RecordingRow,
  type RecordingsRepository,
} from './repository';
import {
  lostRun,
  parseRuns,
  relaunchesOf,
  secondsWithinWindow,
  toRun,
  unionOfRuns,
  type RunRecord,
  type Window,
} from './runs';
import type { EventBus } from '../../lib/events';

/** How often (on the server's clock) a recording's growing size and duration are written while it records. */
const PROGRESS_WRITE_MS = 5000;
/** Recordings the live feed carries (initial_data, recordings_update). */
export const LIVE_RECORDINGS_LIMIT = 50;
/** How long after its window a recording judged without its recorder's result waits for that result. */
export const LATE_RESULT_MS = 30 * 60_000;

export interface NewRecording {
  id: string;
  instanceId: string;
  mosqueId: string | null;
  url: string;
  filePath: string | null;
  /** When its window opens, for a recorder launched ahead of it (the lead time); default now. */
  windowStart?: string;
}

/** The captures the drivers report: one per instance, created at launch and fed by reconciliation. */
export class RecordingsService {
  /** When each recording's progress was last written: on the server's clock and on this process's. */
  private readonly lastProgressWrite = new Map<string, { clockMs: number; realMs: number }>();

  constructor(
    private readonly repository: RecordingsRepository,
    private readonly clock: Clock,
    /** Files are served only from here (DATA_DIR/recordings). */
    private readonly recordingsRoot: string,
    /** Raises and resolves the alarms each reading calls for; none in a server without alarms. */
    private readonly alarms?: RecordingAlarms,
    /** Told of every ended recording whose outcome changes afterwards (`recording_revised`: the scheduler). */
    private readonly events?: Pick<EventBus, 'emit'>,
  ) {}

  async create(recording: NewRecording): Promise<RecordingRow> {
    const now = this.clock.now().toISOString();
    // A recording starts when its recorder does, or when its window opens if the recorder came early.
    const startedAt = recording.windowStart && recording.windowStart > now ? recording.windowStart : now;
    return this.repository.insert({
      id: recording.id,
      instance_id: recording.instanceId,
      mosque_id: recording.mosqueId,
      url: recording.url,
      status: 'recording',
      started_at: startedAt,
      ended_at: null,
      bytes: 0,
      duration_seconds: null,
      file_path: recording.filePath,
      reason: null,
      updated_at: now,
    });
  }

  findRowByInstance(instanceId: string): Promise<RecordingRow | undefined> {
    return this.repository.findByInstance(instanceId);
  }

  /** The recordings of these ids that exist (in no particular order). */
  async byIds(ids: readonly string[]): Promise<Recording[]> {
    return (await this.repository.findByIds(ids)).map(toRecording);
  }

  async forInstance(instanceId: string): Promise<Recording | null> {
    const row = await this.repository.findByInstance(instanceId);
    return row ? toRecording(row) : null;
  }

  /** The instance's recording, with what its recorder last reported of its content while it records. */
  async liveForInstance(instanceId: string): Promise<{ recording: Recording | null; liveContent: LiveContent | null }> {
    const row = await this.repository.findByInstance(instanceId);
    if (!row) return { recording: null, liveContent: null };
    // Written by applyReading from a checked reading; checked again, as a server of another version may have.
    const summary =
      row.status === 'recording' && row.live_content
        ? contentSummarySchema.safeParse(JSON.parse(row.live_content))
        : null;
    return { recording: toRecording(row), liveContent: summary?.success ? liveContentResponse(summary.data) : null };
  }

  /**
   * Whether a recording's progress may be written again: 5 s after the last write on the server's clock
   * (an accelerated clock writes as often as a real one would), or on this process's own (a clock that
   * stands still, as in a test, still sees progress).
   */
  private progressDue(recordingId: string): boolean {
    const now = { clockMs: this.clock.now().getTime(), realMs: performance.now() };
    const last = this.lastProgressWrite.get(recordingId);
    if (last && now.clockMs - last.clockMs < PROGRESS_WRITE_MS && now.realMs - last.realMs < PROGRESS_WRITE_MS)
      return false;
    this.lastProgressWrite.set(recordingId, now);
    return true;
  }

  /**
   * Applies what the driver reports. Returns true when the row changed. Progress (bytes, seconds)
   * of a recording in progress is written at most every 5 s; a change of status at once.
   */
  async applyReading(
    instanceId: string,
    driverReading: ProviderRecording,
    jobId: string | null = null,
    window: Window | null = null,
  ): Promise<boolean> {
    const row = await this.repository.findByInstance(instanceId);
    if (!row || row.status !== 'recording') return false;
    const reading = withContentWarning(this.joinRuns(row, driverReading, window));
    await this.alarms?.check(row, reading, jobId);
    const ended = reading.status !== 'recording';
    // The final size is the joined file's, which may be smaller than the pieces were.
    const bytes = ended ? reading.bytes : Math.max(Number(row.bytes), reading.bytes);
    const seconds = secondsWithinWindow(
      reading.mediaSeconds ?? row.duration_seconds,
      reading.expectedSeconds ?? row.expected_seconds,
    );
    const gaps = JSON.stringify(reading.gaps ?? []);
    // What the Instances details show of a running recording's content; an ended one has its content file.
    const liveContent = !ended && reading.content ? JSON.stringify(reading.content) : null;
    if (!ended) {
      const progressed =
        bytes !== Number(row.bytes) ||
        seconds !== row.duration_seconds ||
        gaps !== row.gaps ||
        liveContent !== row.live_content;
      if (!progressed || !this.progressDue(row.id)) return false;
    } else {
      this.lastProgressWrite.delete(row.id);
    }
    const now = this.clock.now().toISOString();
    await this.repository.update(row.id, {
      bytes,
      duration_seconds: seconds,
      status: reading.status,
      reason: reading.reason ?? row.reason,
      ended_at: ended ? now : null,
      file_path: reading.filePath ?? row.file_path,
      expected_seconds: reading.expectedSeconds ?? row.expected_seconds,
      covered_seconds: reading.coveredSeconds ?? row.covered_seconds,
      gaps,
      reconnects: reading.reconnects ?? Number(row.reconnects),
      live_content: liveContent,
      // Kept as it moves: where a recorder on another host would go on, should this one's server be lost.
      ...(reading.resumePoint ? { resume_point: JSON.stringify(reading.resumePoint) } : {}),
      // Judged without the recorder's result: the store is read again until 30 min after the window.
      provisional_until:
        ended && reading.provisional ? new Date((window?.end ?? Date.parse(now)) + LATE_RESULT_MS).toISOString() : null,
      updated_at: now,
    });
    return true;
  }

  /**
   * The recorder's result that reached the store after its recording was judged provisionally: it
   * replaces that judgement (joined with the runs before it when the fleet relaunched the recorder,
   * whose segments are then joined again), the outcome's alarms follow, and so does the job.
   */
  async applyLateResult(
    instanceId: string,
    driverReading: ProviderRecording,
    jobId: string | null,
    window: Window | null,
  ): Promise<boolean> {
    const row = await this.repository.findByInstance(instanceId);
    if (!row || row.status === 'recording' || row.provisional_until === null) return false;
    const reading = this.joinRuns(row, driverReading, window);
    await this.alarms?.check(row, reading, jobId);
    const now = this.clock.now().toISOString();
    await this.repository.update(row.id, {
      status: reading.status,
      reason: reading.reason,
      bytes: reading.bytes || Number(row.bytes),
      duration_seconds: secondsWithinWindow(
        reading.mediaSeconds ?? row.duration_seconds,
        reading.expectedSeconds ?? row.expected_seconds,
      ),
      expected_seconds: reading.expectedSeconds ?? row.expected_seconds,
      covered_seconds: reading.coveredSeconds ?? row.covered_seconds,
      gaps: JSON.stringify(reading.gaps ?? []),
      reconnects: reading.reconnects ?? Number(row.reconnects),
      provisional_until: null,
      store_joined_at: null,
      updated_at: now,
    });
    this.revised(instanceId);
    return true;
  }

  /** A provisional judgement whose wait for the recorder's result is over: it stands. */
  async confirmProvisional(recordingId: string): Promise<void> {
    await this.repository.update(recordingId, { provisional_until: null });
  }

  /** Recordings judged provisionally, with what a late result needs to be applied. */
  awaitingLateResult() {
    return this.repository.awaitingLateResult();
  }

  /** The outcome of the ended recording of `instanceId` changed (a late result, the store's join). */
  revised(instanceId: string): void {
    this.events?.emit('recording_revised', { instanceId });
  }

  /**
   * Keeps the reading of a run that ended inside its window, now that the fleet started another
   * (relaunch.ts); shows what the runs covered so far and raises the recorder_died alarm.
   */
  async addRun(
    instanceId: string,
    reading: ProviderRecording | null,
    window: Window,
    jobId: string | null,
  ): Promise<boolean> {
    const now = this.clock.now().getTime();
    return this.keepRun(instanceId, window, jobId, (_row, runs) =>
      toRun(reading, runs.length > 0 ? Date.parse(runs[runs.length - 1].relaunchedAt) : window.start, now, window, now),
    );
  }

  /**
   * Keeps the run of a recorder whose server was lost (servers/continuation.ts): what the recording
   * showed up to `knownUntil` (that server's last heartbeat), unknown from there to `until` (when
   * another server continues it, or the window's end), for the reason given. No recorder_died alarm:
   * the lost server has one alarm of its own, not one per recording.
   */
  async addLostRun(
    instanceId: string,
    lost: { knownUntil: number; until: number; reason: string },
    window: Window,
    jobId: string | null,
  ): Promise<boolean> {
    return this.keepRun(instanceId, window, jobId, (row, runs) =>
      lostRun(
        {
          coveredSeconds: row.covered_seconds === null ? null : Number(row.covered_seconds),
          gaps: parseGaps(row.gaps),
          reconnects: Number(row.reconnects),
        },
        runs.length > 0 ? Date.parse(runs[runs.length - 1].relaunchedAt) : window.start,
        lost.knownUntil,
        lost.until,
        lost.reason,
      ),
    );
  }

  /** Adds the run `next` makes of a recording still recording, and shows what its runs covered together. */
  private async keepRun(
    instanceId: string,
    window: Window,
    jobId: string | null,
    next: (row: RecordingRow, runs: RunRecord[]) => RunRecord,
  ): Promise<boolean> {
    const row = await this.repository.findByInstance(instanceId);
    if (!row || row.status !== 'recording') return false;
    const runs = parseRuns(row.runs);
    runs.push(next(row, runs));
    const joined = unionOfRuns(
      runs,
      window,
      { status: 'recording', bytes: 0, mediaSeconds: null, filePath: null, reason: null },
      false,
    );
    await this.alarms?.check(row, { ...joined, relaunches: relaunchesOf(runs) }, jobId);
    await this.repository.update(row.id, {
      runs: JSON.stringify(runs),
      covered_seconds: joined.coveredSeconds,
      expected_seconds: joined.expectedSeconds,
      gaps: JSON.stringify(joined.gaps),
      reconnects: joined.reconnects,
      updated_at: this.clock.now().toISOString(),
    });
    return true;
  }

  /** The reading of the current run joined with the runs before it, when the fleet relaunched its recorder. */
  private joinRuns(row: RecordingRow, reading: ProviderRecording, window: Window | null): ProviderRecording {
    const runs = parseRuns(row.runs);
    if (runs.length === 0 || !window) return reading;
    const now = this.clock.now().getTime();
    const current = toRun(reading, Date.parse(runs[runs.length - 1].relaunchedAt), now, window, now);
    return unionOfRuns([...runs, current], window, reading, reading.status !== 'recording');
  }

  /** Ends a recording whose instance vanished without a final reading. */
  async markEnded(instanceId: string, reason: string, window: Window | null = null): Promise<boolean> {
    const row = await this.repository.findByInstance(instanceId);
    if (!row || row.status !== 'recording') return false;
    if (window && parseRuns(row.runs).length > 0) {
      // Its earlier runs covered something: the outcome is theirs, the vanished run adding nothing.
      return this.applyReading(
        instanceId,
        { status: 'failed', bytes: Number(row.bytes), mediaSeconds: null, filePath: null, reason },
        null,
        window,
      );
    }
    const status: RecordingStatus = Number(row.bytes) > 0 ? 'partial' : 'failed';
    const now = this.clock.now().toISOString();
    await this.repository.update(row.id, { status, reason, ended_at: now, updated_at: now });
    return true;
  }

  async list(filter: RecordingFilter): Promise<Recording[]> {
    return (await this.repository.list(filter)).map(toRecording);
  }

  recent(): Promise<Recording[]> {
    return this.list({ limit: LIVE_RECORDINGS_LIMIT });
  }

  countByStatus(): Promise<Record<string, number>> {
    return this.repository.countByStatus();
  }

  /** The file of a recording, for download; 404 when it has none on this server. */
  async file(id: string): Promise<{ path: string; name: string; size: number }> {
    const row = await this.repository.findById(id);
    if (!row) throw notFound(`Recording ${id} not found`);
    const file = row.file_path ? path.resolve(row.file_path) : undefined;
    if (!file || !file.startsWith(path.resolve(this.recordingsRoot) + path.sep)) {
      throw notFound(`Recording ${id} has no file on this server`);
    }
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) throw new Error('not a file');
      return { path: file, name: path.basename(file), size: stat.size };
    } catch {
      throw notFound(`The file of recording ${id} is no longer on this server`);
    }
  }
}
