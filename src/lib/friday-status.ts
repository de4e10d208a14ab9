import type { ChipProps } from '@mui/material/Chip';
import { formatDuration, type FridayRow, type FridayStatus } from '../../contract/fridays';

/** How each ledger status reads and is coloured: nothing is green that was not recorded in full. */
export const FRIDAY_STATUS_LABELS: Record<FridayStatus, string> = {
  scheduled: 'Scheduled',
  recording: 'Recording',
  captured: 'Captured',
  partial: 'Partial',
  failed: 'Failed',
  missed: 'Missed',
  cancelled: 'Cancelled',
  unschedulable: 'Unschedulable',
};

export const FRIDAY_STATUS_COLORS: Record<FridayStatus, ChipProps['color']> = {
  scheduled: 'primary',
  recording: 'info',
  captured: 'success',
  partial: 'warning',
  failed: 'error',
  missed: 'error',
  cancelled: 'default',
  unschedulable: 'warning',
};

export { countByStatus } from '../../contract/fridays';

/** `25 min of 2 h (20%)`, or null when nothing is known yet. */
export function coverageText(row: Pick<FridayRow, 'covered_seconds' | 'expected_seconds'>): string | null {
  if (row.covered_seconds === null || !row.expected_seconds) return null;
  const share = Math.floor((Math.min(row.covered_seconds, row.expected_seconds) / row.expected_seconds) * 100);
  return `${formatDuration(row.covered_seconds)} of ${formatDuration(row.expected_seconds)} (${share}%)`;
}

/** The Fridays view of one status (and Friday): where the Dashboard's This Friday panel links. */
export function fridaysLink(status: FridayStatus | null, friday?: string): string {
  const params = new URLSearchParams();
  if (friday) params.set('friday', friday);
  if (status) params.set('status', status);
  return `/scheduling?${params.toString()}#fridays`;
}

/** The Friday of the week (Saturday to Friday) a picked date falls in: the ledger is kept per Friday. */
export function fridayOf(date: string): string | null {
  const day = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(day.getTime())) return null;
  return new Date(day.getTime() + ((5 - day.getUTCDay() + 7) % 7) * 86_400_000).toISOString().slice(0, 10);
}

export function shiftWeeks(friday: string, weeks: number): string {
  return new Date(Date.parse(`${friday}T12:00:00Z`) + weeks * 7 * 86_400_000).toISOString().slice(0, 10);
}
