import { reasonBeyondCoverage } from '../../../contract/recordings';
import { formatDuration } from '../../../contract/fridays';
import type { RecordingFacts } from './ports';

/** A Friday is captured when the media covers at least this share of its window. */
export const CAPTURED_SHARE = 0.99;
/** After the window ends, how long a recorder may take to finish its file before the outcome is judged without it. */
export const SETTLE_GRACE_MS = 10 * 60_000;

export interface JobWindow {
  recording_start: string | null;
  recording_end: string | null;
  launched_at: string | null;
  instance_id: string | null;
}

export interface Outcome {
  status: 'captured' | 'partial' | 'failed';
  coveredSeconds: number;
  expectedSeconds: number;
  /** Null when captured in full. */
  reason: string | null;
}

export function windowSeconds(job: Pick<JobWindow, 'recording_start' | 'recording_end'>): number {
  if (!job.recording_start || !job.recording_end) return 0;
  return Math.max(0, (Date.parse(job.recording_end) - Date.parse(job.recording_start)) / 1000);
}

/**
 * What a launched job's recording amounts to, judged against the whole window from recording start:
 * a launch 95 minutes late covers at most the last 25 minutes, and reads partial, never captured.
 */
export function judgeOutcome(job: JobWindow, facts: RecordingFacts | null): Outcome {
  const expected = windowSeconds(job);
  if (!facts) {
    return {
      status: 'failed',
      coveredSeconds: 0,
      expectedSeconds: expected,
      reason: `No recording was found for instance ${job.instance_id ?? '(none)'}; nothing was captured`,
    };
  }
  const covered = Math.min(expected, Math.max(0, facts.coveredSeconds));
  if (covered <= 0) {
    const why =
      facts.reason ?? (facts.inProgress ? 'the recorder never finished its file' : 'the stream never delivered media');
    return { status: 'failed', coveredSeconds: 0, expectedSeconds: expected, reason: `No media was recorded: ${why}` };
  }
  if (expected === 0 || covered >= CAPTURED_SHARE * expected) {
    return { status: 'captured', coveredSeconds: covered, expectedSeconds: expected, reason: null };
  }
  const parts = [
    `Recorded ${formatDuration(covered)} of ${formatDuration(expected)} (${Math.floor((covered / expected) * 100)}%)`,
  ];
  const lateSeconds =
    job.launched_at && job.recording_start ? (Date.parse(job.launched_at) - Date.parse(job.recording_start)) / 1000 : 0;
  if (lateSeconds >= 60) parts.push(`launched ${formatDuration(lateSeconds)} after the recording start`);
  const gaps = facts.gaps.filter((gap) => Date.parse(gap.end) > Date.parse(gap.start));
  if (gaps.length > 0) {
    const listed = gaps
      .slice(0, 3)
      .map(
        (gap) =>
          `${gap.reason || 'no media'} (${formatDuration((Date.parse(gap.end) - Date.parse(gap.start)) / 1000)})`,
      );
    parts.push(`${gaps.length} gap${gaps.length > 1 ? 's' : ''}: ${listed.join(', ')}${gaps.length > 3 ? ', …' : ''}`);
  } else {
    // The recorder's reason opens with its own "Recorded … of …": the coverage is said once, above.
    const beyond = reasonBeyondCoverage(facts.reason);
    if (beyond) parts.push(beyond);
  }
  return { status: 'partial', coveredSeconds: covered, expectedSeconds: expected, reason: parts.join('; ') };
}
