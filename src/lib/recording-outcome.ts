import type { RecordingStatus } from '../../contract/instances';

type ChipColor = 'default' | 'success' | 'warning' | 'error' | 'info';

/** How a recording's outcome reads: only a capture that covers its window is green. */
export const RECORDING_OUTCOMES: Record<RecordingStatus, { label: string; color: ChipColor }> = {
  recording: { label: 'Recording', color: 'info' },
  captured: { label: 'Captured', color: 'success' },
  partial: { label: 'Partial', color: 'warning' },
  failed: { label: 'Failed', color: 'error' },
};

/** 1234567 -> "1.2 MB" (decimal units, as disks are sold). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1000) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/** 7080 -> "1 h 58 min"; 42 -> "42 s". */
export function formatMediaDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
