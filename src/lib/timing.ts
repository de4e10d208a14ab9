/** The timing icon of an upcoming recording (docs/reference.md section 4). */
export type TimingStatus = 'warning' | 'error' | 'success';

const HOUR_MS = 3600 * 1000;

/** warning when there is no (readable) time; error when past; warning within 1 hour; success otherwise. */
export function timingStatus(time: string | null | undefined, now: Date): TimingStatus {
  if (!time) return 'warning';
  const at = new Date(time).getTime();
  if (Number.isNaN(at)) return 'warning';
  const ahead = at - now.getTime();
  if (ahead < 0) return 'error';
  if (ahead <= HOUR_MS) return 'warning';
  return 'success';
}
