import { countOf } from '../../../contract/plural';
import type { Clock } from '../../lib/clock';
import { alarmKeys } from './alarm-keys';
import { formatDuration } from '../../../contract/fridays';
import { withTimeout } from './timeout';
import type { PreflightChecks, SchedulerAlarms } from './ports';
import type { JobRow, SchedulerRepository } from './repository';
import type { RunnerLog } from './runner';

/** Pre-flight runs this long before a recording starts, and again each pass until the launch. */
export const PREFLIGHT_LEAD_MS = 10 * 60_000;
/** At most one round of checks this often per process (they call the provider and resolve streams). */
const PREFLIGHT_EVERY_MS = 30_000;
/** What a local recording writes: ~0.8 GB per 2 h at 1280x720. */
export const LOCAL_BYTES_PER_SECOND = 800_000_000 / 7200;
const STREAM_CHECK_TIMEOUT_MS = 30_000;
const STREAM_CHECK_CONCURRENCY = 4;

export interface PreflightDeps {
  repository: SchedulerRepository;
  checks: PreflightChecks;
  alarms: SchedulerAlarms;
  clock: Clock;
  log: RunnerLog;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * The checks 10 minutes before a recording start: is the capture provider healthy, can the stream be
 * resolved to media, is there disk for this Friday's local recordings. Each failing check is an alarm
 * (provider and disk once, the stream per job); it is resolved when the check passes again or the
 * recording has launched.
 */
export class Preflight {
  private lastRun = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: PreflightDeps) {}

  async run(now: Date): Promise<void> {
    if (now.getTime() - this.lastRun < PREFLIGHT_EVERY_MS) return;
    this.lastRun = now.getTime();
    const { repository, alarms } = this.deps;
    const nowIso = now.toISOString();
    const jobs = await repository.startingBefore(nowIso, new Date(now.getTime() + PREFLIGHT_LEAD_MS).toISOString());
    const stillTrue = new Set<string>();
    if (jobs.length > 0) {
      for (const job of jobs.filter((j) => !j.preflight_at)) await repository.update(job.id, { preflight_at: nowIso });
      await this.checkProvider(jobs, stillTrue);
      await this.checkStreams(jobs, stillTrue);
      await this.checkDisk(now, jobs, stillTrue);
    }
    await alarms.resolveAllExcept('preflight:', stillTrue);
  }

  private async checkProvider(jobs: JobRow[], stillTrue: Set<string>): Promise<void> {
    try {
      // Asked twice before an alarm: on a loaded machine one probe times out (`ffmpeg -version` took
      // over 10 s) while the provider is fine, and a false critical alarm for every recording followed.
      await this.deps.checks.providerHealthy().catch(() => this.deps.checks.providerHealthy());
    } catch (error) {
      stillTrue.add(alarmKeys.preflightProvider);
      await this.deps.alarms.raise({
        kind: 'preflight',
        key: alarmKeys.preflightProvider,
        message: `Pre-flight: the capture provider is not healthy (${reasonOf(error)}); ${countOf(jobs.length, 'recording')} due within 10 minutes`,
      });
    }
  }

  private async checkStreams(jobs: JobRow[], stillTrue: Set<string>): Promise<void> {
    const queue = [...jobs];
    const results = new Map<string, Promise<string | null>>();
    const resolveOnce = (url: string) => {
      let result = results.get(url);
      if (!result) {
        result = withTimeout(
          this.deps.checks.resolveStream(url),
          STREAM_CHECK_TIMEOUT_MS,
          `no answer within ${STREAM_CHECK_TIMEOUT_MS / 1000} s`,
        ).then(() => null, reasonOf);
        results.set(url, result);
      }
      return result;
    };
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const failure = job.url ? await resolveOnce(job.url) : 'the job has no stream URL';
        if (failure === null) continue;
        const key = alarmKeys.preflight(job.id, 'stream');
        stillTrue.add(key);
        await this.deps.alarms.raise({
          kind: 'preflight',
          key,
          message: `Pre-flight: the stream of ${job.mosque_name ?? job.mosque_id} cannot be resolved (${failure}); recording starts at ${job.recording_start}`,
          mosqueId: job.mosque_id,
          mosqueName: job.mosque_name,
          jobId: job.id,
        });
      }
    };
    await Promise.all(Array.from({ length: STREAM_CHECK_CONCURRENCY }, worker));
  }

  private async checkDisk(now: Date, jobs: JobRow[], stillTrue: Set<string>): Promise<void> {
    const free = await this.deps.checks.freeBytes().catch((error: unknown) => {
      this.deps.log.warn({ err: error }, 'pre-flight could not read free disk space');
      return null;
    });
    if (free === null) return;
    const fridays = [...new Set(jobs.flatMap((job) => (job.friday_date ? [job.friday_date] : [])))];
    const unfinished = await this.deps.repository.unfinishedEndingAfter(now.toISOString(), fridays);
    const seconds = unfinished.reduce((sum, job) => {
      const from = Math.max(now.getTime(), Date.parse(job.recording_start ?? '') || now.getTime());
      return sum + Math.max(0, (Date.parse(job.recording_end ?? '') - from) / 1000);
    }, 0);
    const needed = seconds * LOCAL_BYTES_PER_SECOND;
    if (free >= needed) return;
    stillTrue.add(alarmKeys.preflightDisk);
    await this.deps.alarms.raise({
      kind: 'preflight',
      key: alarmKeys.preflightDisk,
      message:
        `Pre-flight: ${gigabytes(free)} free for recordings, but this Friday's ${countOf(unfinished.length, 'local recording')} ` +
        `(${formatDuration(seconds)} in all) need about ${gigabytes(needed)}; ${jobs.length.toLocaleString('en')} due within 10 minutes`,
    });
  }
}

const gigabytes = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;
