import { timingStatus, type TimingStatus } from '../../lib/timing';

/** What each timing icon tells, as its accessible name and tooltip. */
export const TIMING_LABELS = {
  none: 'No recording time',
  past: 'Recording time has passed',
  soon: 'Starts within the hour',
  later: 'Starts in more than an hour',
} as const;

export type TimingKind = keyof typeof TIMING_LABELS;

/** The icon rule of docs/reference.md section 4 (src/lib/timing.ts), and which of its two warnings applies. */
export function timingOf(
  time: string | null | undefined,
  now: Date,
): { status: TimingStatus; kind: TimingKind; label: string } {
  const status = timingStatus(time, now);
  const missing = !time || Number.isNaN(new Date(time).getTime());
  const kind: TimingKind = status === 'error' ? 'past' : status === 'success' ? 'later' : missing ? 'none' : 'soon';
  return { status, kind, label: TIMING_LABELS[kind] };
}
